import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../../firmware-host/mqtt/broker.ts';
import { isMqttError } from '../../../firmware-host/mqtt/errors.ts';
import { startTestBroker } from '../../helpers/broker.ts';
import { freePort } from '../../helpers/ports.ts';
import { commandMissing, mosquittoMissing, skipReason } from '../../helpers/tools.ts';
import { cardEvent, makeBridge, openStore, Recorder, tempDir, waitFor } from './support.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const noMosquitto = mosquittoMissing('the broker security tests need it');
const noPasswd = skipReason(
  noMosquitto,
  commandMissing('mosquitto_passwd', 'the username/password test needs it'),
);
const noOpenssl = skipReason(noMosquitto, commandMissing('openssl', 'the TLS test needs it'));

async function store() {
  const opened = await openStore(tempDir());
  cleanups.push(() => opened.journal.close());
  return opened;
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
}

describe('MQTT bridge security', () => {
  it.skipIf(noPasswd)(
    'authenticates with username and password against a mosquitto password file',
    async () => {
      const dir = tempDir('tableside-auth-');
      chmodSync(dir, 0o755);
      const passwordFile = join(dir, 'passwd');
      run('mosquitto_passwd', ['-c', '-b', passwordFile, 'table-t1', 'right-password'], dir);
      chmodSync(passwordFile, 0o644);
      const broker = await startTestBroker({ passwordFile });
      cleanups.push(() => broker.close());
      const consumer = await Recorder.connect(broker.url, {
        username: 'table-t1',
        password: 'right-password',
      });
      cleanups.push(() => consumer.close());

      const wrong = makeBridge(broker.url, await store(), {
        username: 'table-t1',
        password: 'wrong',
      });
      cleanups.push(() => wrong.stop());
      const errors: string[] = [];
      wrong.on('error', (error) => errors.push(error.message));
      await wrong.start();
      await waitFor(() => errors.length > 0, 'the refusal');
      expect(wrong.isConnected).toBe(false);
      expect(errors[0]).toMatch(/Not authorized|Bad username or password/i);

      const opened = await store();
      const right = makeBridge(broker.url, opened, {
        username: 'table-t1',
        password: 'right-password',
      });
      cleanups.push(() => right.stop());
      await right.start();
      await waitFor(() => right.isConnected, 'the bridge to connect with the right password');
      await opened.journal.append([{ kind: 'event', data: cardEvent('AS', 0) }]);
      await waitFor(() => consumer.events().length === 1, 'the event');
      expect(wrong.isConnected).toBe(false);
    },
  );

  it.skipIf(noOpenssl)(
    'connects over TLS with a CA, a client certificate and its key',
    async () => {
      const dir = tempDir('tableside-tls-');
      chmodSync(dir, 0o755);
      const ext = join(dir, 'server.ext');
      writeFileSync(ext, 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
      run(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=tableside test CA',
          '-keyout',
          'ca.key',
          '-out',
          'ca.pem',
        ],
        dir,
      );
      for (const name of ['server', 'client']) {
        run(
          'openssl',
          [
            'req',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-subj',
            `/CN=${name === 'server' ? '127.0.0.1' : 'table-t1'}`,
            '-keyout',
            `${name}.key`,
            '-out',
            `${name}.csr`,
          ],
          dir,
        );
        run(
          'openssl',
          [
            'x509',
            '-req',
            '-in',
            `${name}.csr`,
            '-CA',
            'ca.pem',
            '-CAkey',
            'ca.key',
            '-CAcreateserial',
            '-days',
            '1',
            '-out',
            `${name}.pem`,
            ...(name === 'server' ? ['-extfile', ext] : []),
          ],
          dir,
        );
        chmodSync(join(dir, `${name}.key`), 0o644);
      }
      const broker = await startTestBroker({
        tls: {
          ca: join(dir, 'ca.pem'),
          cert: join(dir, 'server.pem'),
          key: join(dir, 'server.key'),
          requireCertificate: true,
        },
      });
      cleanups.push(() => broker.close());
      const consumer = await Recorder.connect(broker.url);
      cleanups.push(() => consumer.close());

      const opened = await store();
      const bridge = makeBridge(broker.tlsUrl!, opened, {
        tls: {
          ca: join(dir, 'ca.pem'),
          cert: join(dir, 'client.pem'),
          key: join(dir, 'client.key'),
        },
      });
      cleanups.push(() => bridge.stop());
      await bridge.start();
      await waitFor(() => bridge.isConnected, 'the TLS connection');
      await opened.journal.append([{ kind: 'event', data: cardEvent('KH', 0) }]);
      await waitFor(() => consumer.events().length === 1, 'the event over TLS');

      // Without a client certificate the broker refuses the connection.
      const anonymous = makeBridge(broker.tlsUrl!, await store(), {
        tls: { ca: join(dir, 'ca.pem') },
      });
      cleanups.push(() => anonymous.stop());
      const errors: string[] = [];
      anonymous.on('error', (error) => errors.push(error.message));
      await anonymous.start();
      await waitFor(() => errors.length > 0, 'the refusal');
      expect(anonymous.isConnected).toBe(false);
    },
  );

  it('refuses to start when a TLS file is missing, naming it', async () => {
    const bridge = makeBridge('mqtts://127.0.0.1:8883', await store(), {
      tls: { ca: '/nonexistent/ca.pem' },
    });
    const error = await bridge.start().catch((caught: unknown) => caught);
    expect(isMqttError(error) && error.code).toBe('tls_files');
    expect((error as Error).message).toContain('mqtt.tls.ca: cannot read /nonexistent/ca.pem');
  });
});

describe('embedded broker', () => {
  it('serves the bridge on 127.0.0.1', async () => {
    const broker = await startEmbeddedBroker({ port: await freePort() });
    cleanups.push(() => broker.close());
    const consumer = await Recorder.connect(broker.url);
    cleanups.push(() => consumer.close());
    const opened = await store();
    const bridge = makeBridge(broker.url, opened);
    cleanups.push(() => bridge.stop());
    await bridge.start();
    await opened.journal.append([{ kind: 'event', data: cardEvent('QS', 0) }]);
    await waitFor(() => consumer.events().length === 1, 'the event');
    expect(consumer.on('bridge/state').at(-1)?.text).toBe('online');
  });

  it('says the port is taken and how to use the broker holding it', async () => {
    const holder = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => holder.close(resolve)));
    const error = await startEmbeddedBroker({ port }).catch((caught: unknown) => caught);
    expect(isMqttError(error) && error.code).toBe('port_in_use');
    expect((error as Error).message).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect((error as Error).message).toContain(`mqtt.url to mqtt://127.0.0.1:${port}`);
    expect((error as Error).message).toContain('TABLESIDE_MQTT_URL');
  });
});
