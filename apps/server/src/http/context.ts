import type { Action, Language, PermissionId, Role } from '@console/contract';
import type { Db } from '../db/client.ts';
import type { JobRunner } from '../modules/imports/runner.ts';

/** Who may call a route; checked by the access hook before the handler runs. */
export type Access =
  | { auth: 'public' }
  | { auth: 'user' }
  | { auth: 'platformAdmin' }
  | { auth: 'enterprise'; permission: [PermissionId, Action] };

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

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    user: SessionUser | null;
    tokenHash: string | null;
    enterprise: EnterpriseContext | null;
  }
  interface FastifyInstance {
    db: Db;
    /** Import jobs running on this server. */
    imports: JobRunner;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}
