/**
 * The bot the bot benchmark and the turn round-trip test drive: Start -> ask (waits) -> thanks -> ask again, so
 * every answer gets one reply and leaves the session waiting for the next.
 */
const pos = { x: 0, y: 0 };

/** The canvas, storing each answer in the attribute `attributeId` (named `wish`). */
export const loopCanvas = (attributeId: string) => ({
  nodes: [
    { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
    { id: 'ask', type: 'CollectInputNode', position: pos, data: { label: 'Ask', body: 'What would you like?', variableId: attributeId } },
    { id: 'thanks', type: 'SendMessageNode', position: pos, data: { label: 'Thanks', messageBlocks: [{ id: 'b', type: 'text', text: 'Noted: {{wish}}' }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'ask' },
    { id: 'e2', source: 'ask', target: 'thanks' },
    { id: 'e3', source: 'thanks', target: 'ask' },
  ],
});
