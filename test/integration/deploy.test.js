// deploy/k8s/: the Indexed Job of shards and the merge step pass kubectl's client-side dry run.
// kubectl maps each manifest's kind through the API's discovery even then; with no cluster here, the
// test serves discovery alone (no objects, no writes: any request but a GET fails the test). Skipped,
// with the reason printed, where kubectl is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const noKubectl = kubectl.status === 0 ? null : 'kubectl is not installed: the manifests were not dry-run';
if (noKubectl) process.stdout.write(`# SKIP deploy/k8s: ${noKubectl}\n`);

const resources = (groupVersion, list) => ({ kind: 'APIResourceList', groupVersion, resources: list.map(([name, kind, namespaced]) => ({ name, singularName: name.slice(0, -1), namespaced, kind, verbs: ['create', 'get', 'list', 'patch'] })) });
const DISCOVERY = {
  '/version': { major: '1', minor: '32', gitVersion: 'v1.32.0' },
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] },
  '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: 'batch', versions: [{ groupVersion: 'batch/v1', version: 'v1' }], preferredVersion: { groupVersion: 'batch/v1', version: 'v1' } }] },
  '/api/v1': resources('v1', [['persistentvolumeclaims', 'PersistentVolumeClaim', true], ['namespaces', 'Namespace', false]]),
  '/apis/batch/v1': resources('batch/v1', [['jobs', 'Job', true]]),
};

test('kubectl apply --dry-run=client -f deploy/k8s/ passes: an Indexed Job whose index is the shard, and the merge step', { skip: noKubectl ?? false }, async () => {
  const requests = [];
  const api = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const body = req.method === 'GET' ? DISCOVERY[req.url.split('?')[0]] : null;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
  });
  await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'mdb-k8s-test-'));
  try {
    writeFileSync(join(dir, 'kubeconfig'), `apiVersion: v1\nkind: Config\nclusters: [{name: stub, cluster: {server: "http://127.0.0.1:${api.address().port}"}}]\ncontexts: [{name: stub, context: {cluster: stub, namespace: default}}]\ncurrent-context: stub\nusers: []\n`);
    const manifests = fileURLToPath(new URL('../../deploy/k8s/', import.meta.url));
    const r = await new Promise((resolve) => {
      const child = spawn('kubectl', ['apply', '--dry-run=client', '--validate=false', '-f', manifests, '-o', 'json'], { env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig') } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(requests.filter((q) => !q.startsWith('GET ')), [], 'a dry run writes nothing');
    const items = JSON.parse(r.stdout).items;
    const byName = Object.fromEntries(items.map((i) => [i.metadata.name, i]));
    const shards = byName['mysql-driver-bench-shards'];
    assert.equal(shards.kind, 'Job');
    assert.equal(shards.spec.completionMode, 'Indexed');
    const container = shards.spec.template.spec.containers[0];
    const script = container.args.join(' ');
    assert.match(script, /--shard \$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/\$SHARDS/);
    assert.match(script, /--start-at "\$START_AT"/);
    assert.equal(container.env.find((e) => e.name === 'SHARDS').value, String(shards.spec.completions));
    assert.ok(container.env.find((e) => e.name === 'DB_PASSWORD').valueFrom.secretKeyRef, 'the password from a Secret, never in the manifest');
    const claim = shards.spec.template.spec.volumes[0].persistentVolumeClaim.claimName;
    assert.equal(byName[claim].kind, 'PersistentVolumeClaim');
    const merge = byName['mysql-driver-bench-merge'];
    assert.match(merge.spec.template.spec.containers[0].args.join(' '), /merge \/results\/shard-\*\.json --json \/results\/merged\.json/);
    assert.equal(merge.spec.template.spec.volumes[0].persistentVolumeClaim.claimName, claim);
  } finally {
    api.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
