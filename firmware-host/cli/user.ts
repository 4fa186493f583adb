import type { Command } from 'commander';
import { EXIT_BAD_CONFIG } from './config.ts';

interface UserAddOptions {
  role: string;
  config?: string;
}

/**
 * `tableside user add NAME --role supervisor`: asks for the password (twice
 * at a terminal; one line on stdin otherwise), stores its scrypt hash under
 * `web.users` in the config file, keeping the file's other contents and
 * comments. The password itself is never written anywhere.
 */
export function register(program: Command): void {
  const user = program.command('user').description("manage the web console's users");
  user
    .command('add <name>')
    .description(
      'add or replace a web console user (the password is read from the terminal or stdin)',
    )
    .requiredOption('--role <role>', 'viewer (read only) or supervisor (may make requests)')
    .option('--config <file>', 'configuration file to write; default $TABLESIDE_CONFIG')
    .action(async (name: string, options: UserAddOptions) => {
      const fail = (message: string) => {
        process.stderr.write(`tableside user add: ${message}\n`);
        process.exitCode = EXIT_BAD_CONFIG;
      };
      const { webUserSchema } = await import('../config/web-schema.ts');
      const { configFileFrom } = await import('../config/loader.ts');
      if (options.role !== 'viewer' && options.role !== 'supervisor') {
        fail(`--role ${JSON.stringify(options.role)}: expected viewer or supervisor`);
        return;
      }
      if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/.test(name)) {
        fail(`user name ${JSON.stringify(name)}: expected 1-32 letters, digits, "_", "." or "-"`);
        return;
      }
      const file = configFileFrom(options.config);
      if (!file) {
        fail('no configuration file: give --config FILE or set TABLESIDE_CONFIG');
        return;
      }
      const password = await readPassword();
      if (password === undefined) {
        fail('the two passwords differ; nothing written');
        return;
      }
      if (password.length < 8) {
        fail('the password must have at least 8 characters; nothing written');
        return;
      }
      const { hashPassword } = await import('../web/passwords.ts');
      const entry = webUserSchema.parse({
        role: options.role,
        password: await hashPassword(password),
      });
      const { readFile, writeFile, rename } = await import('node:fs/promises');
      const { parseDocument } = await import('yaml');
      let text = '';
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          fail(`cannot read ${file}: ${(error as Error).message}`);
          return;
        }
      }
      const document = parseDocument(text);
      if (document.errors.length > 0) {
        fail(`${file} is not valid YAML/JSON: ${document.errors[0]!.message}; nothing written`);
        return;
      }
      const isJson = /\.json$/i.test(file);
      if (document.contents === null) document.contents = document.createNode({}) as never;
      document.setIn(['web', 'users', name], document.createNode(entry));
      const out = isJson ? `${JSON.stringify(document.toJS(), null, 2)}\n` : document.toString();
      // Written to a neighbour and renamed: a crash never leaves half a config.
      await writeFile(`${file}.tmp`, out, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      process.stdout.write(
        `${name} (${options.role}) added to ${file}; restart the daemon to apply\n`,
      );
    });
}

/** Twice, without echo, at a terminal; the first line of stdin otherwise. Undefined if the two differ. */
async function readPassword(): Promise<string | undefined> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.split(/\r?\n/)[0] ?? '';
  }
  const first = await ask('Password: ');
  const second = await ask('Again: ');
  return first === second ? first : undefined;
}

function ask(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let answer = '';
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stderr.write('\n');
          resolve(answer);
          return;
        }
        if (char === '\u0003') process.exit(130);
        if (char === '\u007f') answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    stdin.on('data', onData);
  });
}
