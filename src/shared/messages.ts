/**
 * Validation and error messages of the product spec (section 5), word for word.
 * Acceptance tests compare these exactly: never reword them.
 */
export const messages = {
  invalidEmail: 'Please enter a valid email address',
  publicEmail: 'Please use your official email. Public emails are not supported',
  name: 'Please enter your name',
  organizationName: 'Please enter name of your organization',
  templateName: 'Only lower case alphabets, numbers and underscore is allowed for this field',
  phoneRequired: 'Please enter your phone number',
  phoneInvalid: 'Enter a valid phone number',
  wabaAccountIdRequired: 'Please enter your WhatsApp Business Account ID',
  appIdRequired: 'Please enter your App ID',
  phoneNumberIdRequired: 'Please enter your Phone Number ID',
  tokenRequired: 'Please enter your system user permanent token',
  importNeedsPhone: 'At least one column must be mapped to phoneNumber',
  selectSegment: 'Select audience segment!',
  fieldEmpty: 'This field cannot be empty',
} as const;

/** Messages of our own (not in the spec), kept here so server and UI say the same thing. */
export const productMessages = {
  passwordLength: 'Password must be 8 to 50 characters',
  workspaceName: 'Workspace name must be 3 to 50 characters',
  conditionBranches: 'A condition needs at least one branch',
  branchConditions: 'Each branch needs at least one condition',
  mustBeUrl: 'Enter a valid URL',
  notMember: 'You are not a member of this workspace',
  adminOnly: 'Only workspace admins can do this',
  unauthenticated: 'Missing or invalid identity token',
  whatsappTextTooLong: 'WhatsApp messages can be at most 4,096 characters. Shorten the message or send it in two parts.',
  emailNotVerified: 'Verify your email address first',
} as const;

/** Every message the contract itself emits; used to decide whether a validation message needs its field path. */
export const contractMessages: ReadonlySet<string> = new Set<string>([
  ...Object.values(messages),
  ...Object.values(productMessages),
]);
