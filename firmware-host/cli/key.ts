/**
 * `tableside key generate|public|password`: the keys and broker passwords
 * of signed requests, journal signatures and the embedded broker's accounts.
 * Private keys go to files (mode 600), never to the terminal.
 */
import type { Command } from 'commander';

export function register(program: Command): void {
  const key = program
    .command('key')
    .description('make supervisor and table keys (Ed25519) and broker password hashes');

  key
    .command('generate')
    .description(
      'write a new Ed25519 private key (mode 600) and print its public key for the config',
    )
    .requiredOption('--out <file>', 'where to write the private key (PEM); refused if it exists')
    .action(async (options: { out: string }) => {
      const { writeFile } = await import('node:fs/promises');
      const keys = await import('../trust/keys.ts');
      const pair = keys.generateKeyPair();
      try {
        await writeFile(options.out, keys.privateKeyPem(pair.privateKey), {
          mode: 0o600,
          flag: 'wx',
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        process.stderr.write(
          `tableside key generate: cannot write ${options.out}: ${code === 'EEXIST' ? 'the file exists (a key is never overwritten)' : String(error)}\n`,
        );
        process.exitCode = 1;
        return;
      }
      process.stdout.write(
        `private key: ${options.out} (mode 600; keep it with its owner only)\npublic key:  ${keys.formatPublicKey(pair.publicKey)}\nfingerprint: ${keys.fingerprint(pair.publicKey)}\n`,
      );
    });

  key
    .command('public')
    .description('print the public key and fingerprint of a private key file')
    .argument('<file>', 'private key file (PEM)')
    .action(async (file: string) => {
      const keys = await import('../trust/keys.ts');
      try {
        const privateKey = await keys.readPrivateKeyFile(file);
        process.stdout.write(
          `public key:  ${keys.formatPublicKey(privateKey)}\nfingerprint: ${keys.fingerprint(privateKey)}\n`,
        );
      } catch (error) {
        process.stderr.write(`tableside key public: ${(error as Error).message}\n`);
        process.exitCode = 1;
      }
    });

  key
    .command('password')
    .description(
      'read a password on stdin and print its scrypt hash for mqtt.users.<name>.passwordHash',
    )
    .action(async () => {
      const { hashPassword } = await import('../trust/password.ts');
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      const password = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/\r?\n$/, '');
      if (password.length < 8) {
        process.stderr.write(
          'tableside key password: expected a password of 8 characters or more on stdin\n',
        );
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${await hashPassword(password)}\n`);
    });
}
