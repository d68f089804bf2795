import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { configShape, loadConfig, loadSecretsKey } from '@lomo/config';

const root = path.resolve(__dirname, '../../..');
const deploy = (...p: string[]) => path.join(root, 'deploy', ...p);

/** Apps that run as their own process (those with a main.ts, less the CLI and the all-in-one). */
const processApps = readdirSync(path.join(root, 'apps')).filter(
  (app) => existsSync(path.join(root, 'apps', app, 'src', 'main.ts')) && app !== 'cli' && app !== 'standalone',
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
    const appServices = Object.entries(compose.services).filter(([, s]) =>
      s.command?.some((c) => c.includes('dist/apps/')),
    );
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
      expect(container.readinessProbe?.httpGet?.path).toBe('/health');
      expect(container.livenessProbe?.httpGet?.path).toBe('/health');
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
        }[];
      };
    };
  };
}
