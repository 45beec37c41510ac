// `npm run bucket:sign`: signs a license bucket file for tests and trials
// (docs/license-buckets.md). Two forms:
//   npm run bucket:sign -- --new-key-pair <dir>
//       writes <dir>/bucket-signing.key.pem (private, keep it) and <dir>/bucket-signing.pub.pem
//       (what DEPOT_LICENSE_PUBLIC_KEY names)
//   npm run bucket:sign -- --private-key <pem file> --grant <grant.json> [--out <bucket.json>]
//       signs the grant (identifier, licenseType, customerName, issueDate, expiryDate, quantity,
//       optional keySha256) and prints the bucket file, or writes it to --out
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { signBucketFile, type BucketGrant } from '../server/modules/license-buckets/bucket-file.ts';

const { values } = parseArgs({
  options: {
    'new-key-pair': { type: 'string' },
    'private-key': { type: 'string' },
    grant: { type: 'string' },
    out: { type: 'string' },
  },
});

try {
  if (values['new-key-pair']) {
    const dir = values['new-key-pair'];
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    mkdirSync(dir, { recursive: true });
    const secret = join(dir, 'bucket-signing.key.pem');
    writeFileSync(secret, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(
      join(dir, 'bucket-signing.pub.pem'),
      publicKey.export({ type: 'spki', format: 'pem' }),
    );
    console.log(`wrote ${secret} and ${join(dir, 'bucket-signing.pub.pem')}`);
  } else if (values['private-key'] && values.grant) {
    const privateKey = createPrivateKey(readFileSync(values['private-key'], 'utf8'));
    const grant = JSON.parse(readFileSync(values.grant, 'utf8')) as BucketGrant;
    const file = signBucketFile(grant, privateKey);
    if (values.out) writeFileSync(values.out, file);
    else process.stdout.write(file);
  } else {
    console.error(
      'usage: npm run bucket:sign -- --new-key-pair <dir>\n' +
        '       npm run bucket:sign -- --private-key <pem> --grant <grant.json> [--out <file>]',
    );
    process.exit(2);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
