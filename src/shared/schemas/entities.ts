// The entities of product spec section 3 as the API answers them, written per domain in entities/<domain>.ts;
// this file keeps the one import path every consumer uses.
export * from './entities/attribute';
export * from './entities/workspace';
export * from './entities/bot';
export * from './entities/campaign';
export * from './entities/contact';
export * from './entities/conversation';
export * from './entities/import-history';
export * from './entities/invitee';
export * from './entities/pricing';
export * from './entities/segment';
export * from './entities/whatsapp';
