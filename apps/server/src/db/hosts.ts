import pg from 'pg';

/**
 * DATABASE_URL may name several hosts, as libpq's multi-host URLs do:
 * `postgres://console:secret@db1:5432,db2:5432/console?target_session_attrs=read-write`.
 * node-postgres connects to one host, so each new connection here tries the hosts in turn,
 * starting from the last one that served, and with `read-write` keeps only a server that is not
 * in recovery (a standby refuses writes; once promoted it is the primary). After a failover the
 * old primary's connections fail, the database watch finds the server away, closes the pool,
 * and the next connections find the promoted standby.
 */
export interface HostList {
  /** One URL per host, in the order given (target_session_attrs taken out: pg does not know it). */
  urls: string[];
  readWrite: boolean;
}

export function parseHosts(databaseUrl: string): HostList {
  const match = /^(postgres(?:ql)?:\/\/)([^@/]*@)?([^/?#]*)(.*)$/.exec(databaseUrl);
  if (!match) return { urls: [databaseUrl], readWrite: false };
  const [, scheme, auth = '', hostPart, rest] = match;
  const hosts = hostPart.split(',').filter(Boolean);
  const [path, query = ''] = rest.split('?');
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs');
  params.delete('target_session_attrs');
  const search = params.toString();
  return {
    urls: (hosts.length ? hosts : ['']).map((host) => `${scheme}${auth}${host}${path}${search ? `?${search}` : ''}`),
    readWrite: attrs === 'read-write' || attrs === 'primary',
  };
}

/** A standby when a writable server was asked for: as unavailable as a server that is not there (SQLSTATE 57P03, cannot connect now). */
class NotWritable extends Error {
  readonly code = '57P03';
}

/**
 * A pg.Client class that connects to the first host of the list that answers (and, with
 * read-write, is not a standby), remembering which one served for the next connection.
 */
export function clientForHosts(list: HostList): typeof pg.Client {
  if (list.urls.length === 1 && !list.readWrite) return pg.Client;
  let current = 0;
  return class HostsClient extends pg.Client {
    private readonly host_index: number;

    constructor(config?: string | pg.ClientConfig) {
      const index = current;
      super({ ...(typeof config === 'string' ? {} : config), connectionString: list.urls[index] });
      this.host_index = index;
    }

    // @ts-expect-error pg's types declare connect's overloads (callback or promise); the pool uses both.
    connect(callback?: (error: Error | null) => void) {
      const done = this.connectChecked().then(
        () => callback?.(null),
        (error: Error) => {
          // The next connection tries the next host.
          if (current === this.host_index) current = (this.host_index + 1) % list.urls.length;
          if (callback) callback(error);
          else throw error;
        },
      );
      return callback ? undefined : done;
    }

    private async connectChecked() {
      await super.connect();
      if (!list.readWrite) return;
      const { rows } = await this.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
      if (rows[0].standby) {
        await this.end().catch(() => {});
        throw new NotWritable('a standby answered (target_session_attrs=read-write): trying the next host');
      }
    }
  } as unknown as typeof pg.Client;
}
