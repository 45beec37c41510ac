// `npm run password:hash`: prints the scrypt hash of a password read from standard input,
// for DEPOT_ADMIN_PASSWORD_HASH (README, "Configuration"). Reading it from standard input
// keeps it out of the shell's history and the process listing:
//   npm run -s password:hash < file-holding-the-password
//   printf '%s' "$PASSWORD" | npm run -s password:hash
// One trailing newline is taken off (what `echo` and most editors add).
import { text } from 'node:stream/consumers';
import { hashPassword } from '../server/modules/auth/password.ts';

const password = (await text(process.stdin)).replace(/\r?\n$/, '');
if (password.length === 0) {
  console.error('give the password on standard input');
  process.exit(1);
}
console.log(await hashPassword(password));
