/**
 * The web console's part of the configuration (`web:`). Absent: no console.
 * Users are listed with their role and an scrypt hash written by
 * `tableside user add`; a password is never stored in the clear.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

export const DEFAULT_WEB_HOST = '127.0.0.1';
export const DEFAULT_WEB_PORT = 8080;

/** `scrypt$N$r$p$<salt base64>$<hash base64>` (firmware-host/web/passwords.ts). */
export const PASSWORD_HASH_PATTERN = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;

const DNS_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?$/;

const userName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/, 'expected 1-32 letters, digits, "_", "." or "-"');

export const webUserSchema = z.strictObject({
  /** `viewer` reads; `supervisor` may also make requests (new shoe, void, ruleset). */
  role: z.enum(['viewer', 'supervisor']),
  password: z
    .string()
    .regex(PASSWORD_HASH_PATTERN, 'expected an scrypt hash written by `tableside user add`'),
});

export const webSchema = z
  .strictObject({
    /** The address to listen on: loopback unless the config names another. */
    host: z.string().min(1).default(DEFAULT_WEB_HOST),
    port: z.number().int().min(0).max(65535).default(DEFAULT_WEB_PORT),
    /** PEM files, as for MQTT: with cert and key the console is served over HTTPS. */
    tls: z
      .strictObject({
        cert: z.string().min(1, 'expected a file path'),
        key: z.string().min(1, 'expected a file path'),
        ca: z.string().min(1, 'expected a file path').optional(),
      })
      .optional(),
    users: z.record(userName, webUserSchema).default({}),
    /**
     * More names the browser may use for the console (a reverse proxy's),
     * besides the address it listens on and, on loopback, `localhost`: any
     * other `Host` header is refused, so a page whose name was rebound to
     * this address (DNS rebinding) cannot read it.
     */
    allowedHosts: z
      .array(
        z
          .string()
          .refine(
            (name) => isIP(name.replace(/^\[|\]$/g, '')) !== 0 || DNS_NAME.test(name),
            'expected a host name or address as a browser sends it, without scheme or port (e.g. table-1.casino.example)',
          ),
      )
      .default([]),
    /**
     * With no users configured and a loopback address, anyone at the Pi may
     * watch (read only): the bench `npm start` gives. Never on another address.
     */
    anonymousViewer: z.boolean().default(true),
    /** Hours a login lasts. */
    sessionHours: z
      .number()
      .min(0.1)
      .max(24 * 7)
      .default(12),
  })
  .refine((web) => isLoopback(web.host) || Object.keys(web.users).length > 0, {
    message:
      'a console on a non-loopback address needs users (tableside user add NAME --role viewer): nobody could log in',
    path: ['users'],
  });

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost';
}

export type WebConfig = z.output<typeof webSchema>;
export type WebUser = z.output<typeof webUserSchema>;
