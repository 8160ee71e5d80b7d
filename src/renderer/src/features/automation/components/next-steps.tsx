/**
 * "Leads to" pickers for the selected step: its normal exit and its extra exits (no answer, invalid answers,
 * failure), so a keyboard user connects steps without dragging (the same edges a drag makes).
 */
import type { BotNodeType } from '@shared/schemas/bot-canvas';
import { useStore } from 'zustand';
import { FormField } from '../../../components/ui/form-field';
import { NativeSelect } from '../../../components/ui/input';
import { type BotStore, describeBotNode } from '../canvas/bot-store';
import { botNodeKinds, parentKindOf } from '../canvas/node-kinds';
import { extraHandlesOf } from './nodes/bot-node';

export function NextSteps({ store, nodeId, type, readOnly }: { store: BotStore; nodeId: string; type: BotNodeType; readOnly: boolean }) {
  // A string key keeps this from re-rendering on every drag frame: ids, names and exits only.
  const key = useStore(store, (s) =>
    JSON.stringify({
      targets: s.nodes.filter((n) => n.id !== nodeId && n.type !== 'StartNode' && !parentKindOf(n.type)).map((n) => [n.id, describeBotNode(n)]),
      exits: s.edges.filter((e) => e.source === nodeId).map((e) => [e.sourceHandle ?? '', e.target]),
    }),
  );
  const { targets, exits } = JSON.parse(key) as { targets: [string, string][]; exits: [string, string][] };
  const kind = botNodeKinds[type];
  const handles = [...(kind.hasOutput ? [{ id: '', label: 'Next step' }] : []), ...extraHandlesOf(type).map((h) => ({ id: h.id, label: `${h.label}: go to` }))];
  if (!handles.length) return null;
  return (
    <section className="flex flex-col gap-3 border-t border-border pt-3" aria-label="Where this step leads">
      {handles.map((h) => (
        <FormField key={h.id} label={h.label}>
          <NativeSelect
            disabled={readOnly}
            value={exits.find(([handle]) => handle === h.id)?.[1] ?? ''}
            onChange={(e) => store.getState().setNext(nodeId, e.target.value || null, h.id || null)}
          >
            <option value="">{h.id ? 'Nowhere' : 'Nothing (the bot ends here)'}</option>
            {targets.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      ))}
    </section>
  );
}
