// What the server serves that changes while it runs: the published tree (`out/current`), the signing
// keys (their file, or their row of a shared database) and the clients' states (the database, which
// other processes and other replicas change too). Each is re-read when its source changes, by
// pollers, and replaced in one assignment so that a request sees either the old value or the new one.
import type BetterSqlite3 from "better-sqlite3";

import { clientsMarker, onClientsChanged, readClientStates, type ClientState } from "../../auth/clients.js";
import { keyStorageFor, loadOrCreateKeys, type KeySet, type KeyStorage } from "../../auth/keys.js";
import type { Logger } from "../../log.js";
import { rawSqlite, type Store } from "../../store/database.js";
import { localTreeSource, type LoadedTree, type TreeSource } from "./tree.js";

/** A generation that failed to load is retried after this long (it may have been mid-removal). */
const FAILED_GENERATION_RETRY_MS = 5000;
/**
 * A token naming a client the server does not know re-reads the clients at most this often (and only
 * when the database has changed), so that tokens of deleted clients cannot make every request a read.
 */
export const CLIENT_MISS_RELOAD_MS = 100;

/** The published tree in memory, re-loaded when `out/current` points at another generation. */
class PublishedTree {
  current: LoadedTree | undefined;
  private failedTarget: string | undefined;

  constructor(
    private readonly source: TreeSource,
    private readonly log: Logger,
  ) {}

  async refresh(): Promise<void> {
    const target = await this.source.currentTarget().catch((error: Error) => {
      this.log.warn({ err: error.message }, "cannot read the published tree's current link");
      return undefined;
    });
    if (target === undefined || target === this.current?.target || target === this.failedTarget) return;
    try {
      const loaded = await this.source.load(target);
      this.current = loaded;
      this.failedTarget = undefined;
      const { generation, files, banks } = loaded;
      this.log.info({ generation, files, banks: banks.size }, "published tree loaded");
    } catch (error) {
      // A generation removed under us, or not as its manifest says: keep serving the previous one.
      this.failedTarget = target;
      this.log.error(
        { target, err: (error as Error).message },
        "cannot load the published generation; still serving the previous one",
      );
      setTimeout(() => {
        if (this.failedTarget === target) this.failedTarget = undefined;
      }, FAILED_GENERATION_RETRY_MS).unref();
    }
  }
}

/** The embedded SSO's signing keys, re-loaded when their file or row changes (`exrates keys rotate`). */
class SigningKeys {
  private constructor(
    private readonly storage: KeyStorage,
    private readonly log: Logger,
    private readonly now: () => number,
    public current: KeySet,
    private stamp: string | undefined,
  ) {}

  static async load(storage: KeyStorage, log: Logger, now: () => number): Promise<SigningKeys> {
    const keys = await loadOrCreateKeys(storage, now());
    return new SigningKeys(storage, log, now, keys, await storage.stamp());
  }

  async refresh(): Promise<void> {
    try {
      const stamp = await this.storage.stamp();
      if (stamp === this.stamp) return;
      this.current = await loadOrCreateKeys(this.storage, this.now());
      this.stamp = stamp;
      this.log.info(
        { kid: this.current.active.kid, published: this.current.published.length },
        "signing keys reloaded",
      );
    } catch (error) {
      this.log.error({ err: (error as Error).message }, "cannot reload the signing keys; keeping the previous ones");
    }
  }
}

/**
 * Every client's state (enabled, not-before), re-read when the database has changed. On SQLite,
 * data_version moves when another connection commits, as `exrates clients` from a shell does, and
 * the read is synchronous. On a shared database, a cheap marker (count and newest updated_at,
 * clients.ts) is polled and the clients re-read through the pool when it moved, one read at a time.
 */
class ClientStates {
  states = new Map<string, ClientState>();
  /** Full reads of the clients table so far (tests check the bound on reloads). */
  reads = 0;
  private marker: number | string = -1;
  private lastMissReload = -Infinity;
  private pendingReload: Promise<void> | undefined;
  /** Shared database: the refresh in flight (they run one after another). */
  private sharedRefresh: Promise<void> = Promise.resolve();
  private sharedBusy = 0;
  private readonly sqlite: BetterSqlite3.Database | undefined;

  private constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly missReloadMs: number,
  ) {
    this.sqlite = rawSqlite(store);
  }

  static async load(store: Store, log: Logger, now: () => number, missReloadMs: number): Promise<ClientStates> {
    const states = new ClientStates(store, log, now, missReloadMs);
    if (states.sqlite) {
      states.marker = states.readDataVersion(states.sqlite);
      states.read();
    } else await states.refreshIfChanged();
    return states;
  }

  /** Re-reads at once (a change made through this process's own connection). */
  read = (): void => {
    if (!this.sqlite) return void this.refreshIfChanged();
    this.states = readClientStates(this.store) as Map<string, ClientState>;
    this.reads++;
  };

  /**
   * A client's state; an id not known here (a client created by another process since the last poll)
   * re-reads the clients first when the database has changed, at most once per `missReloadMs`: an
   * unknown id within that interval waits for the next re-read (one for all of them), so neither a
   * flood of unknown ids reads more often nor a fresh client is refused for having come too soon.
   */
  get(clientId: string): ClientState | undefined | Promise<ClientState | undefined> {
    const known = this.states.get(clientId);
    if (known !== undefined) return known;
    const wait = this.lastMissReload + this.missReloadMs - this.now();
    if (wait <= 0) {
      const reloaded = this.missReload();
      return reloaded ? reloaded.then(() => this.states.get(clientId)) : this.states.get(clientId);
    }
    this.pendingReload ??= new Promise<void>((resolve) => {
      setTimeout(() => {
        this.pendingReload = undefined;
        void Promise.resolve(this.missReload()).then(resolve);
      }, wait).unref();
    });
    return this.pendingReload.then(() => this.states.get(clientId));
  }

  private missReload(): void | Promise<void> {
    this.lastMissReload = this.now();
    return this.refreshIfChanged();
  }

  /** For the poller: skips a tick while a shared-database refresh is still going. */
  poll = (): void => {
    if (this.sharedBusy === 0) void this.refreshIfChanged();
  };

  refreshIfChanged = (): void | Promise<void> => {
    if (!this.sqlite) {
      this.sharedBusy++;
      this.sharedRefresh = this.sharedRefresh.then(() => this.refreshShared()).finally(() => this.sharedBusy--);
      return this.sharedRefresh;
    }
    try {
      const version = this.readDataVersion(this.sqlite);
      if (version === this.marker) return;
      this.marker = version;
      this.read();
    } catch (error) {
      // The store closed under us (shutdown) or is busy: keep the last known states, try again later.
      this.log.warn({ err: (error as Error).message }, "cannot re-read the clients");
    }
  };

  private async refreshShared(): Promise<void> {
    try {
      const marker = await clientsMarker(this.store);
      if (marker === this.marker) return;
      // The marker is taken before the read: a change made in between moves it again, and is read then.
      this.states = await readClientStates(this.store);
      this.marker = marker;
      this.reads++;
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, "cannot re-read the clients");
    }
  }

  private readDataVersion(sqlite: BetterSqlite3.Database): number {
    return sqlite.pragma("data_version", { simple: true }) as number;
  }
}

export interface LiveStateOptions {
  outDir: string;
  /** EXRATES_PUBLISH_URL: the tree is loaded from this bucket (and its pointer followed) instead of outDir. */
  publishUrl?: string;
  dataDir: string;
  /** Given: the embedded SSO runs, and its keys and clients are kept live too. */
  store?: Store;
  /** The embedded SSO over a database that cannot be read: its keys (their file) are loaded anyway. */
  keysWithoutStore?: boolean;
  log: Logger;
  now: () => number;
  /** How often `out/current` and the key file are checked for changes (ms). */
  pollMs?: number;
  /** How often the clients table is checked for changes by other processes (ms). */
  clientPollMs?: number;
  /** At most one re-read of the clients per this many ms for unknown client ids (CLIENT_MISS_RELOAD_MS). */
  clientMissReloadMs?: number;
}

export interface LiveState {
  /** The tree currently served (undefined before the first publish). */
  tree: () => LoadedTree | undefined;
  /** The signing keys (embedded SSO only). */
  keys: () => KeySet;
  /** A client's state (embedded SSO only); an unknown id re-reads the clients (bounded, maybe after a wait). */
  client: (clientId: string) => ClientState | undefined | Promise<ClientState | undefined>;
  /** Full reads of the clients table so far (0 without the embedded SSO). */
  clientReads: () => number;
  /** Checks every source now (the pollers do it anyway). */
  refresh: () => Promise<void>;
  /** Re-reads the signing keys if they changed (a token signed with a key not known here yet). */
  refreshKeys: () => Promise<void>;
  /** Starts the pollers and the clients' change listener. */
  watch: () => void;
  /** Stops them. */
  close: () => void;
}

/** Loads the keys, the clients and the tree once, ready to be watched. */
export async function loadLiveState(options: LiveStateOptions): Promise<LiveState> {
  const { store, log } = options;
  // Without a readable database (SQLite), the signing keys are still their file beside it.
  const keys =
    store || options.keysWithoutStore
      ? await SigningKeys.load(keyStorageFor(options.dataDir, store), log, options.now)
      : undefined;
  const clients = store
    ? await ClientStates.load(store, log, options.now, options.clientMissReloadMs ?? CLIENT_MISS_RELOAD_MS)
    : undefined;
  const source = options.publishUrl
    ? (await import("./tree-s3.js")).S3TreeSource.fromUrl(options.publishUrl)
    : localTreeSource(options.outDir);
  await source.check?.();
  const tree = new PublishedTree(source, log);
  await tree.refresh();

  const refreshFiles = async () => {
    await tree.refresh();
    await keys?.refresh();
  };
  let pollingFiles = false;
  const pollFiles = async () => {
    if (pollingFiles) return;
    pollingFiles = true;
    try {
      await refreshFiles();
    } catch (error) {
      log.error({ err: (error as Error).message }, "refreshing the tree or the keys failed");
    } finally {
      pollingFiles = false;
    }
  };
  const stops: Array<() => void> = [];

  return {
    tree: () => tree.current,
    keys: () => keys!.current,
    client: (clientId) => clients?.get(clientId),
    clientReads: () => clients?.reads ?? 0,
    refreshKeys: async () => keys?.refresh(),
    async refresh() {
      await refreshFiles();
      await clients?.refreshIfChanged();
    },
    watch() {
      if (store && clients) stops.push(onClientsChanged(store, clients.read));
      const fileTimer = setInterval(() => void pollFiles(), options.pollMs ?? 1000);
      fileTimer.unref();
      stops.push(() => clearInterval(fileTimer));
      if (clients) {
        const clientTimer = setInterval(clients.poll, options.clientPollMs ?? 250);
        clientTimer.unref();
        stops.push(() => clearInterval(clientTimer));
      }
    },
    close() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
