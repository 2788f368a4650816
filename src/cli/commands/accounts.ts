/**
 * `addrflow accounts create|topup|show|agree|disable`: account administration on a billing store.
 * Output is JSON on stdout. Secrets are printed once, by `create`, and never logged.
 */
import { parseArgs } from 'node:util';
import { Billing, parseAgreements, type AccountSelector } from '../../billing/billing.ts';
import { UsageError, type Command } from '../command.ts';
import { StartError } from '../../contract/errors.ts';
import { got } from '../options.ts';

const usage = `usage: addrflow accounts <action> [options] [--db URL]

  create  [--credits N | --unlimited] [--agree search,lines]
          prints {"license":"…","guid":"…","account":"…"}; the secrets are shown only here
  topup   SELECTOR (--credits N | --unlimited)      add N credits, or make the account unlimited
  show    SELECTOR                                  balance, reservations, agreements, state
  agree   SELECTOR --agree search,lines             set the accepted agreements ('' = none)
  disable SELECTOR [--enable]                       disable (401 on every call), or enable again

  SELECTOR  --account ID | --guid GUID | --license LICENSE
  --db      sqlite:PATH (default sqlite:data/addrflow.sqlite) or postgres://…  (env ADDRFLOW_DB)`;

function count(v: string | undefined, name: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)) || Number(v) < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, ${got(v)}`);
  return Number(v);
}

function selector(v: { account?: string; guid?: string; license?: string }): AccountSelector {
  const given = [v.account, v.guid, v.license].filter((x) => x !== undefined).length;
  if (given !== 1) throw new UsageError('give exactly one of --account, --guid, --license');
  if (v.account !== undefined) return { id: v.account };
  if (v.guid !== undefined) return { guid: v.guid };
  return { license: v.license! };
}

const command: Command = {
  usage,
  async run(argv) {
    const [action, ...rest] = argv;
    const { values } = parseArgs({
      args: rest,
      options: {
        db: { type: 'string' },
        credits: { type: 'string' },
        unlimited: { type: 'boolean' },
        agree: { type: 'string' },
        account: { type: 'string' },
        guid: { type: 'string' },
        license: { type: 'string' },
        enable: { type: 'boolean' },
      },
      strict: true,
    });
    if (!action || !['create', 'topup', 'show', 'agree', 'disable'].includes(action)) {
      throw new UsageError(action === undefined ? 'say create, topup, show, agree or disable' : `the action must be create, topup, show, agree or disable, got ${action}`);
    }
    if (values.credits !== undefined && values.unlimited) throw new UsageError('give --credits or --unlimited, not both');
    const agreements = values.agree !== undefined ? parseAgreementsOrUsage(values.agree) : undefined;
    const billing = await Billing.open(values.db);
    try {
      let out: unknown;
      if (action === 'create') {
        out = await billing.createAccount({
          credits: count(values.credits, 'credits', 0) ?? 0,
          unlimited: values.unlimited ?? false,
          agreements: agreements ?? [],
        });
      } else {
        const sel = selector(values);
        if (!(await billing.findAccount(sel))) {
          throw new StartError('ACCOUNT_NOT_FOUND', `no account matches the ${values.account !== undefined ? '--account' : values.guid !== undefined ? '--guid' : '--license'} given; 'addrflow accounts create' makes one`);
        }
        if (action === 'topup') {
          if (values.unlimited) out = await billing.topup(sel, 'unlimited');
          else {
            const n = count(values.credits, 'credits', 1);
            if (n === undefined) throw new UsageError('topup needs --credits N or --unlimited');
            out = await billing.topup(sel, n);
          }
        } else if (action === 'show') {
          out = await billing.findAccount(sel);
        } else if (action === 'agree') {
          if (agreements === undefined) throw new UsageError('agree needs --agree search,lines');
          out = await billing.setAgreements(sel, agreements);
        } else {
          out = await billing.setDisabled(sel, !values.enable);
        }
      }
      process.stdout.write(JSON.stringify(out) + '\n');
      return 0;
    } finally {
      await billing.close();
    }
  },
};

function parseAgreementsOrUsage(s: string) {
  try {
    return parseAgreements(s);
  } catch (err) {
    throw new UsageError(`--agree: ${(err as Error).message}`);
  }
}

export default command;
