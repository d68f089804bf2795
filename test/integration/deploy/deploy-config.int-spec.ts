import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { configShape, loadConfig, loadSecretsKey, type LomoConfig } from '@lomo/config';

const root = path.resolve(__dirname, '../../..');
const deploy = (...p: string[]) => path.join(root, 'deploy', ...p);

/**
 * Apps that run as their own process (those with a main.ts), less the CLI, the all-in-one and the
 * simulated generation upstream: a stand-in for a paid provider (libs/generation/src/simulated),
 * which a deployment replaces with the real one and never runs.
 */
const notDeployed = new Set(['cli', 'standalone', 'sim-upstream']);
const processApps = readdirSync(path.join(root, 'apps')).filter(
  (app) => existsSync(path.join(root, 'apps', app, 'src', 'main.ts')) && !notDeployed.has(app),
);

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(entry.name) ? [readFileSync(file, 'utf8')] : [];
  });

/**
 * Apps that hold webhooks (they build the notifier's module): they store signing secrets
 * encrypted, so production needs LOMO_SECRETS_KEY there, and the other apps must not get it.
 */
const webhookApps = processApps.filter((app) =>
  sources(path.join(root, 'apps', app, 'src')).some((text) => text.includes('NotifierModule.register(')),
);

type Env = Record<string, string>;
const known = new Set(Object.keys(configShape));

/**
 * What an operator supplies outside the manifests (a Kubernetes Secret, the shell of `docker
 * compose`): the manifests only promise the variable is set, so a well-formed stand-in is checked.
 */
const operatorSupplied = (name: string): string =>
  name === 'LOMO_SECRETS_KEY' ? randomBytes(32).toString('base64') : 'supplied-by-the-operator';

/**
 * Files an app keeps state in, given its configuration: what is lost with the pod if it sits on an
 * emptyDir (or the container's own layer), and what replicas would not share. Each line follows
 * the code that picks the adapter.
 */
function fileStores(app: string, config: LomoConfig): { store: string; path: string }[] {
  const stores: { store: string; path: string }[] = [];
  // libs/platform/src/platform.module.ts: every app opens the event store, the bus and blobs.
  if (config.LOMO_EVENTSTORE === 'sqlite') stores.push({ store: 'event store', path: config.LOMO_SQLITE_PATH });
  if (config.LOMO_BUS === 'in-process') stores.push({ store: 'bus log', path: config.LOMO_BUS_PATH });
  if (config.LOMO_BLOB_STORE === 'filesystem') stores.push({ store: 'blobs', path: config.LOMO_BLOB_DIR });
  // libs/application/src/executor/starter-tools.provider.ts
  if (app === 'executor' && config.LOMO_TOOLS_STORE === 'sqlite')
    stores.push({ store: 'tool state', path: path.join(config.LOMO_DATA_DIR, 'tools.sqlite') });
  // libs/read-models/src/read-side/create-document-store.ts and libs/webhooks/src/create-notifier-documents.ts
  if ((app === 'api' || app === 'projector') && !config.MONGODB_URL)
    stores.push({ store: 'read models', path: config.LOMO_READ_MODELS_PATH });
  if (webhookApps.includes(app) && !config.MONGODB_URL)
    stores.push({ store: 'webhook state', path: config.LOMO_NOTIFIER_SQLITE_PATH });
  // libs/api/src/api.module.ts: API tokens have no shared adapter yet.
  if (app === 'api') stores.push({ store: 'API tokens', path: config.LOMO_AUTH_SQLITE_PATH });
  return stores;
}

/**
 * Known and owned elsewhere: the API's tokens are in a SQLite file of each pod until the token
 * store gets a shared adapter. Listed so that any other store a replica keeps to itself fails.
 */
const pendingSharedStores: Record<string, string[]> = { api: ['API tokens'] };

/** Checks one container's environment against the config schema, as the app would at start. */
function expectValidDistributedEnv(where: string, app: string, env: Env): void {
  const unknown = Object.keys(env).filter((name) => !known.has(name));
  expect({ where, unknown }).toEqual({ where, unknown: [] });
  const holdsWebhooks = webhookApps.includes(app);
  expect({ where, secretsKey: 'LOMO_SECRETS_KEY' in env }).toEqual({ where, secretsKey: holdsWebhooks });
  let problem: unknown;
  try {
    const config = loadConfig(env);
    expect({
      where,
      production: config.NODE_ENV === 'production',
      mode: config.LOMO_MODE,
      bus: config.LOMO_BUS,
      store: config.LOMO_EVENTSTORE,
      reads: !!config.MONGODB_URL,
    }).toEqual({
      where,
      production: true,
      mode: 'distributed',
      bus: 'kafka',
      store: 'eventstoredb',
      reads: true,
    });
    // What NotifierModule.register does at start: in production, a missing key stops it.
    if (holdsWebhooks) loadSecretsKey(config);
  } catch (e) {
    problem = e instanceof Error ? e.message : e;
  }
  expect({ where, problem }).toEqual({ where, problem: undefined });
}

describe('deploy/: every variable the manifests set is one the config schema knows, and every required one is set', () => {
  it('knows which apps hold webhooks (and so need LOMO_SECRETS_KEY)', () => {
    expect([...webhookApps].sort()).toEqual(['api', 'notifier']);
  });

  it('docker-compose.yml: each app service', () => {
    const compose = parse(readFileSync(deploy('docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { command?: string[]; environment?: Env; healthcheck?: unknown }>;
    };
    // sim-upstream is the one-host setup's stand-in provider, not an app of ours (notDeployed).
    const appServices = Object.entries(compose.services).filter(
      ([name, s]) => !notDeployed.has(name) && s.command?.some((c) => c.includes('dist/apps/')),
    );
    expect(compose.services['sim-upstream']?.healthcheck).toBeDefined();
    expect(appServices.map(([name]) => name).sort()).toEqual([...processApps].sort());
    for (const [name, service] of appServices) {
      expect({ name, command: service.command }).toEqual({ name, command: ['node', `dist/apps/${name}/main.js`] });
      expect(service.healthcheck).toBeDefined();
      const env: Env = {};
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        // `${NAME:?message}`: compose takes it from the shell and refuses to start without it.
        const fromShell = /^\$\{(\w+):\?[^}]+\}$/.exec(String(value));
        if (fromShell !== null) expect({ name, key, from: fromShell[1] }).toEqual({ name, key, from: key });
        env[key] = fromShell !== null ? operatorSupplied(key) : String(value);
      }
      expectValidDistributedEnv(`compose:${name}`, name, env);
      // Compose mounts no volume into the apps: every file store would live in the container's layer.
      expect({ name, volumes: (service as { volumes?: unknown }).volumes }).toEqual({ name, volumes: undefined });
      const local = fileStores(name, loadConfig(env)).map((s) => s.store);
      expect({ name, local }).toEqual({ name, local: pendingSharedStores[name] ?? [] });
      if (name === 'executor') {
        const c = loadConfig(env);
        expect([c.LOMO_TOOLS_STORE, c.LOMO_BLOB_STORE]).toEqual(['mongodb', 'mongodb']);
      }
    }
    for (const infra of ['eventstoredb', 'kafka', 'mongodb'])
      expect(compose.services[infra]?.healthcheck).toBeDefined();
  });

  it('kubernetes/: a Deployment per app with probes, on the shared ConfigMap; executors scaled to 3', () => {
    const docs = readdirSync(deploy('kubernetes'))
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) =>
        parseAllDocuments(readFileSync(deploy('kubernetes', f), 'utf8')).map((d) => d.toJSON() as K8sObject),
      );
    const configMap = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'lomo-config');
    const secret = docs.find((d) => d.kind === 'Secret' && d.metadata.name === 'lomo-secrets');
    expect(configMap?.data).toBeDefined();
    const deployments = docs.filter((d) => d.kind === 'Deployment');
    expect(deployments.map((d) => d.metadata.name.replace(/^lomo-/, '')).sort()).toEqual([...processApps].sort());
    for (const d of deployments) {
      const container = d.spec!.template.spec.containers[0];
      const app = d.metadata.name.replace(/^lomo-/, '');
      expect(container.command).toEqual(['node', `dist/apps/${app}/main.js`]);
      // Liveness consults no dependency, readiness this pod's connections: never the same path.
      expect({
        app,
        ready: container.readinessProbe?.httpGet?.path,
        live: container.livenessProbe?.httpGet?.path,
      }).toEqual({ app, ready: '/health/ready', live: '/health/live' });
      expect(container.readinessProbe?.httpGet?.path).not.toBe(container.livenessProbe?.httpGet?.path);
      if (container.startupProbe) expect(container.startupProbe.httpGet?.path).toBe('/health/live');
      const env: Env = { ...configMap!.data, ...secret?.stringData };
      for (const e of container.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref !== undefined) {
          const source = docs.find((d) => d.kind === 'Secret' && d.metadata.name === ref.name);
          expect({ app, ref, declared: ref.key in { ...source?.stringData, ...source?.data } }).toEqual({
            app,
            ref,
            declared: true,
          });
          env[e.name] = operatorSupplied(e.name);
        } else {
          env[e.name] = e.value ?? 'from-the-pod'; // fieldRef: the pod's name
        }
      }
      expectValidDistributedEnv(`k8s:${app}`, app, env);
      const config = loadConfig(env);
      const emptyDirs = new Set(
        (d.spec!.template.spec.volumes ?? []).filter((v) => 'emptyDir' in v).map((v) => v.name),
      );
      const mounts = (container.volumeMounts ?? []).filter((m) => emptyDirs.has(m.name)).map((m) => m.mountPath);
      const onEmptyDir = fileStores(app, config)
        .filter((s) => mounts.some((m) => s.path === m || s.path.startsWith(`${m}/`)))
        .map((s) => s.store);
      // Every replica of a multi-replica app must see the same state: none of it may live in the pod.
      if (d.spec!.replicas > 1) {
        expect({ app, onEmptyDir }).toEqual({ app, onEmptyDir: pendingSharedStores[app] ?? [] });
        expect({ app, local: fileStores(app, config).map((s) => s.store) }).toEqual({
          app,
          local: pendingSharedStores[app] ?? [],
        });
      }
      if (app === 'executor') {
        expect({ tools: config.LOMO_TOOLS_STORE, blobs: config.LOMO_BLOB_STORE, mongo: !!config.MONGODB_URL }).toEqual({
          tools: 'mongodb',
          blobs: 'mongodb',
          mongo: true,
        });
      }
    }
    // Credentials come from Secrets, never the ConfigMap; the example's placeholder cannot start an app.
    expect(configMap!.data).not.toHaveProperty('LOMO_SECRETS_KEY');
    const keySecret = docs.find((d) => d.kind === 'Secret' && d.metadata.name === 'lomo-secrets-key');
    const placeholder = keySecret?.stringData?.LOMO_SECRETS_KEY;
    expect(placeholder).toBeDefined();
    expect(() => loadConfig({ LOMO_SECRETS_KEY: placeholder })).toThrow(/LOMO_SECRETS_KEY: must be 32 random bytes/);
    const replicas = Object.fromEntries(deployments.map((d) => [d.metadata.name, d.spec!.replicas]));
    expect(replicas['lomo-executor']).toBe(3);
    expect(replicas['lomo-relay']).toBe(2);
  });
});

describe('deploy/Dockerfile', () => {
  it('builds and runs on a maintained Node 22 image, with the project’s own build script', () => {
    const dockerfile = readFileSync(deploy('Dockerfile'), 'utf8');
    const bases = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]!);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) expect({ base, major: /^node:(\d+)/.exec(base)?.[1] }).toEqual({ base, major: '22' });
    expect(dockerfile).toMatch(/RUN npm ci[^\n]*\n/);
    expect(dockerfile).toMatch(/npm run build/);
  });
});

describe('fileStores: what the stateful-store check sees', () => {
  it('finds the stores a replica would keep to itself when nothing shared is configured', () => {
    const config = loadConfig({ LOMO_MODE: 'distributed', LOMO_DATA_DIR: '/data' });
    expect(fileStores('executor', config).map((s) => [s.store, s.path])).toEqual([
      ['event store', '/data/events.sqlite'],
      ['bus log', '/data/bus.sqlite'],
      ['blobs', '/data/blobs'],
      ['tool state', '/data/tools.sqlite'],
    ]);
  });
});

interface K8sObject {
  kind: string;
  metadata: { name: string };
  data?: Env;
  stringData?: Env;
  spec?: {
    replicas: number;
    template: {
      spec: {
        containers: {
          command: string[];
          env?: {
            name: string;
            value?: string;
            valueFrom?: { fieldRef?: { fieldPath: string }; secretKeyRef?: { name: string; key: string } };
          }[];
          readinessProbe?: { httpGet?: { path: string } };
          livenessProbe?: { httpGet?: { path: string } };
          startupProbe?: { httpGet?: { path: string } };
          volumeMounts?: { name: string; mountPath: string }[];
        }[];
        volumes?: ({ name: string } & Record<string, unknown>)[];
      };
    };
  };
}
