import type { ColumnType, Generated } from 'kysely';

/** Row types of every table, as Kysely sees them. Migrations in ./migrations create them. */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string | null;
  admin: boolean;
  profile_updatable: boolean;
  disable_ui_access: boolean;
  internal_password_disabled: boolean;
  realm: string;
  password_expired: boolean;
  locked: boolean;
  failed_logins: number;
  last_logged_in: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  description: string;
  auto_join: boolean;
  admin_privileges: boolean;
  realm: string;
  created_at: ColumnType<Date, never, never>;
}

export interface UserGroupsTable {
  user_id: number;
  group_id: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a leaked table does not hand out sessions. */
  id: string;
  user_id: number;
  csrf_token: string;
  expires_at: Date;
  last_seen_at: Date;
  created_at: ColumnType<Date, never, never>;
}

export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
}

export interface RepositoriesTable {
  id: Generated<number>;
  key: string;
  rclass: 'local' | 'remote' | 'virtual';
  package_type: string;
  description: string;
  notes: string;
  includes_pattern: string;
  excludes_pattern: string;
  repo_layout_ref: string;
  config: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface BlobsTable {
  sha256: string;
  sha1: string;
  md5: string | null;
  size: number;
  created_at: ColumnType<Date, never, never>;
  touched_at: ColumnType<Date, Date | undefined, Date>;
}

export interface NodesTable {
  id: Generated<number>;
  repository_id: number;
  path: string;
  parent_path: string;
  name: string;
  folder: boolean;
  sha256: string | null;
  size: number;
  mime_type: string | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
  created_by: string;
  modified_at: ColumnType<Date, Date | undefined, Date>;
  modified_by: string;
}

export interface NodePropertiesTable {
  node_id: number;
  key: string;
  value: string;
}

export interface RemoteMissesTable {
  repository_id: number;
  path: string;
  expires_at: Date;
  created_at: ColumnType<Date, never, never>;
}

export interface DepotDatabase {
  users: UsersTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  repositories: RepositoriesTable;
  blobs: BlobsTable;
  nodes: NodesTable;
  node_properties: NodePropertiesTable;
  remote_misses: RemoteMissesTable;
}
