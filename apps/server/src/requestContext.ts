/**
 * Who asks and as which enterprise, and what a route says of its callers: the request-context
 * types that the services and the HTTP layer (http/) share. They sit below both, importing
 * neither, so a service that takes the caller does not import the HTTP layer that calls it.
 */
import type { FastifyRequest } from 'fastify';
import type { Action, PermissionId, Role } from '@console/contract';

/** Who may call a route; checked by the access hook before the handler runs. */
export type Access =
  | { auth: 'public' }
  | { auth: 'user' }
  | { auth: 'platformAdmin' }
  | {
      auth: 'enterprise';
      permission: [PermissionId, Action];
      /** A data service read by other systems: a personal access token is taken too (header or query key). */
      personal?: boolean;
    };

/**
 * What the audit trail records of a write beyond who, where and the outcome (modules/audit).
 * `state` reads the object as it stands: called before the handler and again after a success,
 * the two make the changed fields' before and after. `object` names it when the route's path
 * does not; `signIn` marks a sign-in attempt (the name tried is recorded, never the password).
 */
export interface AuditConfig {
  object?: string;
  /** The object's id when it is not the route's first parameter (a project's thresholds: the body's projectId). */
  objectId?: (request: FastifyRequest) => string | null;
  state?: (request: FastifyRequest) => Promise<object | null | undefined>;
  /**
   * The route answers the object as saved: that is its state after, without reading it again.
   * Without `state`, the handler notes the state before in `request.auditBefore` from its own
   * write (a statement that returns what it replaced: no read before, exact under concurrent writes).
   */
  afterIsAnswer?: boolean;
  signIn?: boolean;
}

export interface SessionUser {
  id: number;
  username: string;
  realname: string;
  avatar: string;
  isPlatformAdmin: boolean;
}

export interface EnterpriseContext {
  id: number;
  role: Role;
}
