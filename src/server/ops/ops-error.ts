/** A refusal or failure of an operator's command, worded for the operator: the CLI prints its message alone. */
export class OpsError extends Error {}
