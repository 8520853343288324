// Storage handle types. Code is typed against the SQLite clients; the PostgreSQL clients have the
// same model types but classes that are not assignable to them (docs/environment.md "Prisma 7"), so the
// factories (global-db.ts, realm-pool.ts) cast them once.
import type { PrismaClient as GlobalSqliteClient, Prisma as GlobalPrismaNs } from './generated/global-sqlite/client';
import type { PrismaClient as RealmSqliteClient, Prisma as RealmPrismaNs } from './generated/realm-sqlite/client';

export type GlobalDb = GlobalSqliteClient;
export type RealmDb = RealmSqliteClient;

/** The client handed to `$transaction(async (tx) => ...)` callbacks. */
export type GlobalTx = GlobalPrismaNs.TransactionClient;
export type RealmTx = RealmPrismaNs.TransactionClient;

/** Input and payload types (`RealmPrisma.UserWhereInput`, ...), for repos that need them. */
export type { GlobalPrismaNs as GlobalPrisma, RealmPrismaNs as RealmPrisma };

export type { Realm, RealmDomain, RealmAppDomain, PlatformAuditEvent } from './generated/global-sqlite/client';
export type {
  User,
  Session,
  App,
  PermissionRole,
  Group,
  GroupRole,
  GroupParent,
  GroupMember,
  OAuthScope,
  LoginProvider,
  PendingAdminInvite,
  AuthLogEvent,
} from './generated/realm-sqlite/client';
