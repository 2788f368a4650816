/**
 * `addrflow maintenance on|off|status --db URL`: the maintenance flag in the billing store. Running
 * servers read it about once a second and answer 503 on both endpoints while it is on.
 */
import { parseArgs } from 'node:util';
import { Billing } from '../../billing/billing.ts';
import { UsageError, type Command } from '../command.ts';

const usage = `usage: addrflow maintenance on|off|status [--db URL]

  on      both API endpoints answer 503 (servers notice within about a second, no restart)
  off     back to normal
  status  print the current state
  --db    sqlite:PATH (default sqlite:data/addrflow.sqlite) or postgres://…  (env ADDRFLOW_DB)`;

const command: Command = {
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, options: { db: { type: 'string' } }, allowPositionals: true, strict: true });
    const action = positionals[0];
    if (positionals.length === 0) throw new UsageError('say on, off or status');
    if (positionals.length > 1 || !['on', 'off', 'status'].includes(action!)) throw new UsageError(`the action must be on, off or status, got ${positionals.join(' ')}`);
    const billing = await Billing.open(values.db);
    try {
      if (action !== 'status') await billing.setMaintenance(action === 'on');
      process.stdout.write(JSON.stringify({ maintenance: await billing.getMaintenance() }) + '\n');
      return 0;
    } finally {
      await billing.close();
    }
  },
};

export default command;
