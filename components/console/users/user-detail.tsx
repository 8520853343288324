'use client';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { ActiveBadge } from '@/components/ui/status-badges';
import { keys, type User } from '../directory-types';
import { UserEffectiveAccess } from './user-effective-access';
import { UserExternalLinks } from './user-external-links';
import { UserGroups } from './user-groups';
import { UserPasswordForm } from './user-password-form';
import { UserProfileForm } from './user-profile-form';
import { UserSecurity } from './user-security';
import { UserSessions } from './user-sessions';
import { UserErase } from './user-erase';
import { UserStatus } from './user-status';

export function UserDetail({
  userId,
  canWrite,
  canReadGroups,
  selfId,
  created,
  passwordMinLength,
  access,
}: {
  userId: string;
  canWrite: boolean;
  canReadGroups: boolean;
  /** The Security area (user:write), the sessions (session:read/write), the link to the person's log entries (auth-log:read), erasure (gdpr:admin). */
  access: { canReadSessions: boolean; canWriteSessions: boolean; canReadLog: boolean; canErase?: boolean };
  selfId: string;
  created: boolean;
  passwordMinLength: number;
}) {
  const query = useQuery({ queryKey: keys.user(userId), queryFn: ({ signal }) => api<User>(`/api/user/${encodeURIComponent(userId)}`, { signal }) });
  const user = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={{ href: '/console/users', label: 'Users' }} title="User not found" />
        <Alert tone="warning" title="This user does not exist, or was permanently erased." />
      </>
    );
  }
  return (
    <>
      <PageHeader
        back={{ href: '/console/users', label: 'Users' }}
        title={user?.DisplayName ?? 'User'}
        description={
          user ? (
            <span className="row">
              {user.UserName}
              <ActiveBadge active={user.IsActive} deleted={user.IsDeleted} />
            </span>
          ) : undefined
        }
      />
      {created ? <Alert tone="success" title="User created." /> : null}
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {user ? (
          <div className="two-col">
            <div className="stack">
              <UserProfileForm user={user} canWrite={canWrite} />
              <UserGroups userId={user.Id} canWrite={canWrite && !user.IsDeleted} canReadGroups={canReadGroups} />
              <UserEffectiveAccess userId={user.Id} canReadGroups={canReadGroups} />
              <UserExternalLinks userId={user.Id} canWrite={canWrite && !user.IsDeleted} />
            </div>
            <div className="stack">
              <UserStatus user={user} canWrite={canWrite} isSelf={user.Id === selfId} />
              {canWrite ? <UserSecurity user={user} canReadLog={access.canReadLog} /> : null}
              {access.canReadSessions ? <UserSessions userId={user.Id} displayName={user.DisplayName} canWrite={access.canWriteSessions} /> : null}
              {canWrite && !user.IsDeleted ? <UserPasswordForm userId={user.Id} hasPassword={user.HasPassword} minLength={passwordMinLength} /> : null}
              <section className="card" aria-labelledby="facts-heading">
                <div className="card-header">
                  <h2 id="facts-heading">Facts</h2>
                </div>
                <div className="card-body">
                  <dl className="dl">
                    <dt>E-mail</dt>
                    <dd>{user.EmailConfirmed ? 'Verified' : 'Not verified'}</dd>
                    <dt>Password</dt>
                    <dd>{user.HasPassword ? 'Set' : 'None'}</dd>
                    <dt>Last sign-in</dt>
                    <dd>{user.LastLoginAt ? formatDate(user.LastLoginAt) : 'Never'}</dd>
                    <dt>Created</dt>
                    <dd>{formatDate(user.CreatedAt)}</dd>
                    {user.DeletedAt ? (
                      <>
                        <dt>Deleted</dt>
                        <dd>{formatDate(user.DeletedAt)}</dd>
                      </>
                    ) : null}
                    <dt>Id</dt>
                    <dd className="mono small">{user.Id}</dd>
                  </dl>
                </div>
              </section>
              {access.canErase && user.Id !== selfId ? <UserErase user={user} /> : null}
            </div>
          </div>
        ) : null}
      </QueryState>
    </>
  );
}
