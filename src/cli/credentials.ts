/**
 * The account credentials of a command: `--license/--guid`, else the environment variables
 * ADDRFLOW_LICENSE / ADDRFLOW_GUID, which keep the secrets out of the process list (`ps`) and out
 * of shell history — the form to use in containers and schedulers.
 */
export interface CredentialArgs {
  license?: string | undefined;
  guid?: string | undefined;
}

export function credentialsFrom(values: CredentialArgs, env: NodeJS.ProcessEnv = process.env): { license?: string; guid?: string } {
  const license = values.license ?? env.ADDRFLOW_LICENSE;
  const guid = values.guid ?? env.ADDRFLOW_GUID;
  return { ...(license !== undefined ? { license } : {}), ...(guid !== undefined ? { guid } : {}) };
}
