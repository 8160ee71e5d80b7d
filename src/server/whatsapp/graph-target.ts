/**
 * Which service the server's Graph API calls reach: Meta, or a stand-in (the local sandbox `npm start` runs when
 * GRAPH_API_URL is unset, or any other address GRAPH_API_URL names). A refusal of credentials says which one
 * refused them, so real credentials given to a stack that runs the sandbox are not mistaken for wrong ones.
 */
const META_HOST = 'graph.facebook.com';

export interface GraphTarget {
  /** The Graph API base URL the server calls (GRAPH_API_URL). */
  url: string;
  /** True when that is not Meta's Graph API: numbers are checked against a stand-in. */
  sandbox: boolean;
}

export function graphTarget(graphApiUrl: string): GraphTarget {
  let host = '';
  try {
    host = new URL(graphApiUrl).hostname;
  } catch {
    // not an address: certainly not Meta
  }
  return { url: graphApiUrl, sandbox: host !== META_HOST };
}

export type CredentialProblem = 'token' | 'phoneNumberId';

const why: Record<CredentialProblem, { meta: string; sandbox: string }> = {
  token: {
    meta: 'WhatsApp (Meta) refused the token: check the system user permanent token',
    sandbox: 'refused the token',
  },
  phoneNumberId: {
    meta: 'WhatsApp (Meta) does not know this Phone Number ID for this token',
    sandbox: 'does not know this Phone Number ID for this token',
  },
};

/** The sentence an admin reads when the Graph API refused the credentials of a number. */
export function credentialRefusal(target: GraphTarget, problem: CredentialProblem): string {
  if (!target.sandbox) return why[problem].meta;
  return (
    `The local WhatsApp sandbox at ${target.url}, not Meta, checked these credentials and ${why[problem].sandbox}. ` +
    'This server runs against the sandbox (GRAPH_API_URL), which knows only the numbers it made itself; ' +
    'to connect a real number, run it against Meta as docs/going-live.md describes.'
  );
}
