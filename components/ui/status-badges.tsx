export function ActiveBadge({ active, deleted }: { active: boolean; deleted?: boolean }) {
  if (deleted) return <span className="badge badge-danger">Deleted</span>;
  return active ? <span className="badge badge-success">Active</span> : <span className="badge">Inactive</span>;
}
