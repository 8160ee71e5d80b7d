/** A command line the server cannot act on: main.ts prints the message and the usage, and exits with 2. */
export class UsageError extends Error {}
