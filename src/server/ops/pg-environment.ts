/**
 * The environment that hands a PostgreSQL URL to pg_dump and pg_restore: libpq's PG* variables, so the password
 * never appears on a command line (visible to every user in `ps`) or in a log.
 */
import { OpsError } from './ops-error';

export function pgEnvironment(databaseUrl: string): NodeJS.ProcessEnv {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new OpsError('DATABASE_URL is not a URL (postgres://user:password@host:5432/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new OpsError('DATABASE_URL must be a postgres:// URL');
  }
  const env: NodeJS.ProcessEnv = {};
  const set = (name: string, value: string | null | undefined) => {
    if (value) env[name] = value;
  };
  // URL keeps brackets around an IPv6 literal; libpq wants the bare address.
  set('PGHOST', url.searchParams.get('host') ?? url.hostname.replace(/^\[(.*)\]$/, '$1'));
  set('PGPORT', url.searchParams.get('port') ?? url.port);
  set('PGUSER', decodeURIComponent(url.username) || url.searchParams.get('user'));
  set('PGPASSWORD', decodeURIComponent(url.password) || url.searchParams.get('password'));
  set('PGDATABASE', decodeURIComponent(url.pathname.replace(/^\//, '')));
  set('PGSSLMODE', url.searchParams.get('sslmode'));
  set('PGAPPNAME', 'parley-ops');
  return env;
}

/** The URL without its password, for messages. */
export function describeDatabase(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'the database';
  }
}
