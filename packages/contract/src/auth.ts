import { z } from 'zod';
import { email, newPassword, phone, requiredText, smsCode, username } from './fields.ts';
import { PERMISSION_IDS, ACTIONS } from './permissions.ts';

/** GET /api/getEncryptedString: a one-time AES key and iv, 16 characters each. */
export const encryptionKeySchema = z.object({ key: z.string().length(16), iv: z.string().length(16) });
export type EncryptionKey = z.infer<typeof encryptionKeySchema>;

/** POST /api/checkLogin: password is base64(AES-CBC(zero padded UTF-8 password)) with the one-time key. */
export const checkLoginBody = z.object({
  username: requiredText(64),
  password: requiredText(1024),
});

export const userInfoSchema = z.object({
  username: z.string(),
  realname: z.string(),
  avatar: z.string(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const loginResultSchema = z.object({ token: z.string(), userInfo: userInfoSchema });
export type LoginResult = z.infer<typeof loginResultSchema>;

export const permissionSchema = z.object({
  permissionId: z.enum(PERMISSION_IDS),
  actionList: z.array(z.enum(ACTIONS)),
});

/** GET /api/getUserPermission */
export const userPermissionSchema = z.object({
  role: z.object({ permissions: z.array(permissionSchema) }),
  permissions: z.array(permissionSchema),
  name: z.string(),
  avatar: z.string(),
  username: z.string(),
  isPlatformAdmin: z.boolean(),
  enterpriseId: z.number().int().nullable(),
  userType: z.string().nullable(),
});
export type UserPermission = z.infer<typeof userPermissionSchema>;

/** POST /api/user/changPassword (the path is spelled as the spec has it). */
export const changePasswordBody = z.object({
  passwordOld: requiredText(64),
  passwordNew: newPassword,
});

export const SMS_PURPOSES = ['register', 'recover'] as const;

/** GET /api/sendSMS */
export const sendSmsQuery = z.object({ phone, purpose: z.enum(SMS_PURPOSES) });

/** POST /api/auth/register */
export const registerBody = z.object({
  username,
  password: newPassword,
  phone,
  smsCode,
  realname: requiredText(64),
  email: z.preprocess((v) => (v === '' || v === null ? undefined : v), email.optional()),
});

/** POST /api/auth/forge-password (spelled as the spec has it) */
export const forgePasswordBody = z.object({ phone, smsCode, passwordNew: newPassword });

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
});
export const readinessSchema = z.object({
  ready: z.boolean(),
  version: z.string(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
  migrations: z.object({ applied: z.number(), expected: z.number() }),
});

