import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { configShape, loadConfig } from '@lomo/config';

const root = path.resolve(__dirname, '../../..');
const deploy = (...p: string[]) => path.join(root, 'deploy', ...p);

/** Apps that run as their own process (those with a main.ts, less the CLI and the all-in-one). */
const processApps = readdirSync(path.join(root, 'apps')).filter(
  (app) => existsSync(path.join(root, 'apps', app, 'src', 'main.ts')) && app !== 'cli' && app !== 'standalone',
);

type Env = Record<string, string>;
const known = new Set(Object.keys(configShape));

/** Checks one container's environment against the config schema, as the app would at start. */
function expectValidDistributedEnv(where: string, env: Env): void {
  const unknown = Object.keys(env).filter((name) => !known.has(name));
  expect({ where, unknown }).toEqual({ where, unknown: [] });
  let problem: unknown;
  try {
    const config = loadConfig(env);
    expect({
      where,
      mode: config.LOMO_MODE,
      bus: config.LOMO_BUS,
      store: config.LOMO_EVENTSTORE,
      reads: !!config.MONGODB_URL,
    }).toEqual({
      where,
      mode: 'distributed',
      bus: 'kafka',
      store: 'eventstoredb',
      reads: true,
    });
  } catch (e) {
    problem = e instanceof Error ? e.message : e;
  }
  expect({ where, problem }).toEqual({ where, problem: undefined });
}

describe('deploy/: every variable the manifests set is one the config schema knows, and every required one is set', () => {
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
      expectValidDistributedEnv(
        `compose:${name}`,
        Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, String(v)])),
      );
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
      for (const e of container.env ?? []) env[e.name] = e.value ?? 'from-the-pod'; // fieldRef: the pod's name
      expectValidDistributedEnv(`k8s:${app}`, env);
    }
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
          env?: { name: string; value?: string }[];
          readinessProbe?: { httpGet?: { path: string } };
          livenessProbe?: { httpGet?: { path: string } };
        }[];
      };
    };
  };
}
