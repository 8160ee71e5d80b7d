/**
 * The canvas views of the 14 bot node kinds: one memoised card (icon, title, the node's label, a short summary
 * of what it does, its handles) and one row view for children (list items, reply buttons, condition branches).
 * Views read only their own props, the editor context, one boolean of the preview store and one of the zoom
 * (zoomed out, cards draw a plain box with their title), so a 500-node canvas re-renders only what changed.
 */
import { botRuntime, type BotNodeType } from '@shared/schemas/bot-canvas';
import { Handle, type NodeProps, Position, useNodeConnections, useNodesData } from '@xyflow/react';
import { AlertTriangle } from 'lucide-react';
import { type ReactNode, memo } from 'react';
import { useZoomedOut } from '../../../../components/canvas';
import { cn } from '../../../../lib/cn';
import { CHILD_HEIGHT, CHILD_WIDTH, NODE_WIDTH } from '../../canvas/children';
import { memberName, useBotEditor, usePreviewCursor } from '../../canvas/editor-context';
import { botNodeKinds } from '../../canvas/node-kinds';
import type { BotCanvasNode } from '../../canvas/types';

type Data = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const arr = (v: unknown) => (Array.isArray(v) ? (v as Data[]) : []);

/** Which extra outgoing edges a kind offers (besides its normal one): timeouts, failures, invalid answers. */
const extraHandles: Partial<Record<BotNodeType, { id: string; label: string }[]>> = {
  CollectInputNode: [{ id: botRuntime.noAnswerHandle, label: 'No answer' }],
  ListNode: [
    { id: botRuntime.invalidHandle, label: 'Invalid answers' },
    { id: botRuntime.noAnswerHandle, label: 'No answer' },
  ],
  ReplyNode: [
    { id: botRuntime.invalidHandle, label: 'Invalid answers' },
    { id: botRuntime.noAnswerHandle, label: 'No answer' },
  ],
  WhatsappFlowNode: [
    { id: botRuntime.invalidHandle, label: 'Invalid answers' },
    { id: botRuntime.noAnswerHandle, label: 'No answer' },
  ],
  HTTPRequestNode: [{ id: botRuntime.failureHandle, label: 'On failure' }],
};
export const extraHandlesOf = (type: BotNodeType) => extraHandles[type] ?? [];

function useIsPreviewed(id: string) {
  return usePreviewCursor((s) => s.nodeId === id);
}

// A node's data object is replaced on each edit, so its problem is kept by object: a node that scrolls back into
// view (only those in view are drawn) or switches between card and box does not parse its data again.
const problemsByData = new WeakMap<Data, string | null>();

function problemOf(type: BotNodeType, data: Data) {
  let problem = problemsByData.get(data);
  if (problem === undefined) {
    const parsed = botNodeKinds[type].schema.safeParse(data);
    problem = parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Incomplete');
    problemsByData.set(data, problem);
  }
  return problem;
}


function Summary({ type, data }: { type: BotNodeType; data: Data }): ReactNode {
  const { attributesById, membersById } = useBotEditor();
  const attr = (id: unknown) => (id ? (attributesById.get(str(id))?.name ?? 'unknown attribute') : null);
  switch (type) {
    case 'StartNode': {
      const c = data.startCondition as { type: string; keywords?: string[]; match?: string } | undefined;
      return c?.type === 'keywords' ? `Starts on ${c.match === 'exact' ? 'exactly' : 'messages containing'}: ${(c.keywords ?? []).join(', ')}` : 'Starts on any message';
    }
    case 'SendMessageNode': {
      const blocks = arr(data.messageBlocks);
      const first = str(blocks[0]?.text) || 'No text yet';
      return blocks.length > 1 ? `${first} (+${blocks.length - 1} more)` : first;
    }
    case 'MediaNode':
      return `${str(data.mediaType) || 'image'}: ${str(data.filename) || str(data.caption) || str(data.mediaLink) || 'no file yet'}`;
    case 'CollectInputNode':
      return `${str(data.body) || 'No question yet'} → ${attr(data.variableId) ?? 'no attribute'}`;
    case 'ListNode':
    case 'ReplyNode':
      return str(data.body) || 'No question yet';
    case 'WhatsappFlowNode':
      return `${str(data.body) || 'No text yet'} [${str(data.flowCTA) || 'Open'}]`;
    case 'ConditionNode':
      return 'First branch whose conditions all hold, else Default';
    case 'HTTPRequestNode':
      return `${str(data.method) || 'GET'} ${str(data.url) || 'no URL yet'}`;
    case 'SendEmailNode':
      return `To ${arr(data.to).length ? (data.to as string[]).join(', ') : 'nobody yet'}: ${str(data.subject) || 'no subject'}`;
    case 'HumanHandoffNode':
      return data.assigneeMemberId ? `Assign to ${memberName(membersById.get(str(data.assigneeMemberId)))}` : 'No member chosen yet';
    default:
      return null;
  }
}

/** The normal exit is at the bottom (steps flow downwards, as the frame places them); extra exits on the right. */
function OutHandle({ id, label, index, toChildren }: { id?: string; label?: string; index?: number; toChildren?: boolean }) {
  return (
    <Handle
      type="source"
      position={index === undefined ? Position.Bottom : Position.Right}
      id={id}
      // A parent's edges go to its own children only; they are made from its form, never by dragging.
      isConnectableStart={!toChildren}
      // A tooltip for mouse users: handles are not focusable (keyboard users join steps from the form and the list).
      title={toChildren ? 'Choices' : label ? `${label} exit` : 'Next step'}
      style={index === undefined ? undefined : { top: 'auto', bottom: 10 + index * 18 }}
      className="!size-3 !border-2 !border-surface !bg-accent"
    />
  );
}

/** A card's connection points, the same when zoomed in or out (edges are drawn to them). */
function CardHandles({ type }: { type: BotNodeType }) {
  const kind = botNodeKinds[type];
  const extras = extraHandlesOf(type);
  return (
    <>
      {type !== 'StartNode' && <Handle type="target" position={Position.Top} title="Entry" className="!size-3 !border-2 !border-surface !bg-fg-subtle" />}
      {(kind.hasOutput || kind.child) && <OutHandle toChildren={!!kind.child} />}
      {extras.map((h, i) => (
        <OutHandle key={h.id} id={h.id} label={h.label} index={extras.length - 1 - i} />
      ))}
    </>
  );
}

/** The card of a top-level node (every kind but children); a plain box with its title when zoomed out. */
export const BotNodeCard = memo(function BotNodeCard(props: NodeProps<BotCanvasNode>) {
  return useZoomedOut() ? <BotNodeBox {...props} /> : <BotNodeFull {...props} />;
});

function BotNodeFull({ id, type, data, selected }: NodeProps<BotCanvasNode>) {
  const kind = botNodeKinds[type];
  const Icon = kind.icon;
  const problem = problemOf(type, data);
  const previewed = useIsPreviewed(id);
  const extras = extraHandlesOf(type);
  const label = str(data.label);
  return (
    <div
      data-testid={`bot-node-${id}`}
      data-node-type={type}
      className={cn(
        'relative flex flex-col rounded-lg border bg-surface text-left shadow-sm [contain:layout_style]',
        selected ? 'border-accent ring-2 ring-accent/40' : 'border-border-strong',
        previewed && 'ring-4 ring-sky-400/70',
      )}
      style={{ width: NODE_WIDTH, minHeight: 72 }}
    >
      <div className="flex items-center gap-2 border-b border-border px-3 py-2">
        <span className={cn('flex size-6 shrink-0 items-center justify-center rounded-md', kind.tone)}>
          <Icon className="size-3.5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-[11px] font-medium tracking-wide text-fg-subtle uppercase">{kind.title}</p>
          {label && label !== kind.title && <p className="truncate text-[13px] font-semibold text-fg">{label}</p>}
        </div>
        {problem && (
          <span title={problem} className="text-warning-text">
            <AlertTriangle className="size-4" role="img" aria-label={`Incomplete: ${problem}`} />
          </span>
        )}
      </div>
      <p className="line-clamp-2 px-3 py-2 text-xs leading-snug break-words text-fg-muted">
        <Summary type={type} data={data} />
      </p>
      {extras.length > 0 && (
        <div className="mt-auto flex flex-col items-end gap-0.5 px-3 pb-1.5 text-[10px] text-fg-subtle">
          {extras.map((h) => (
            <span key={h.id}>{h.label}</span>
          ))}
        </div>
      )}
      <CardHandles type={type} />
    </div>
  );
}

/**
 * Zoomed out: the node's title, large enough to read at that zoom, in a box of the card's last measured height
 * (so React Flow need not measure it again and its edges stay where they were); no icon, summary or shadow.
 */
function BotNodeBox({ id, type, data, selected, height }: NodeProps<BotCanvasNode>) {
  const kind = botNodeKinds[type];
  const problem = problemOf(type, data);
  const previewed = useIsPreviewed(id);
  return (
    <div
      data-testid={`bot-node-${id}`}
      data-node-type={type}
      className={cn(
        'relative flex items-center gap-2 rounded-lg border-2 bg-surface px-4 [contain:layout_style]',
        selected ? 'border-accent' : problem ? 'border-warning-text' : 'border-border-strong',
        previewed && 'ring-4 ring-sky-400/70',
      )}
      style={{ width: NODE_WIDTH, height: height || 72 }}
    >
      <p className="min-w-0 flex-1 truncate text-[28px] font-semibold text-fg">{str(data.label) || kind.title}</p>
      {problem && <AlertTriangle className="size-7 shrink-0 text-warning-text" role="img" aria-label={`Incomplete: ${problem}`} />}
      <CardHandles type={type} />
    </div>
  );
}

/** The row of a child: a list item, a reply button or a condition branch (its conditions read from its parent). */
export const BotChildRow = memo(function BotChildRow({ id, type, data, selected }: NodeProps<BotCanvasNode>) {
  const zoomedOut = useZoomedOut();
  const previewed = useIsPreviewed(id);
  const problem = problemOf(type, data);
  const Icon = botNodeKinds[type].icon;
  return (
    <div
      data-testid={`bot-node-${id}`}
      data-node-type={type}
      className={cn(
        'relative flex items-center gap-2 rounded-md border bg-subtle px-3 text-[13px] text-fg [contain:layout_style]',
        selected ? 'border-accent ring-2 ring-accent/40' : 'border-border',
        previewed && 'ring-4 ring-sky-400/70',
      )}
      style={{ width: CHILD_WIDTH, height: CHILD_HEIGHT }}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} title="From its parent" className="!size-2.5 !border-2 !border-surface !bg-fg-subtle" />
      {/* Zoomed out: the label only (a branch's conditions read its parent; not worth it at that size). */}
      {!zoomedOut && <Icon className="size-3.5 shrink-0 text-fg-subtle" aria-hidden />}
      <span className="min-w-0 flex-1 truncate">
        {type === 'ConditionBranchNode' && !zoomedOut ? (
          <BranchText id={id} data={data} />
        ) : (
          str(data.label) || (type === 'ConditionBranchNode' && data.type === 'Default' ? 'Default' : <em className="text-fg-subtle">No label yet</em>)
        )}
      </span>
      {problem && <AlertTriangle className="size-3.5 shrink-0 text-warning-text" role="img" aria-label={`Incomplete: ${problem}`} />}
      <OutHandle />
    </div>
  );
});

/** The parent Condition of a branch: the source of the edge into it. */
function useParentId(id: string) {
  const connections = useNodeConnections({ id, handleType: 'target' });
  return connections[0]?.source ?? '';
}

function BranchText({ id, data }: { id: string; data: Data }) {
  const parent = useNodesData<BotCanvasNode>(useParentId(id));
  const { attributesById } = useBotEditor();
  if (data.type === 'Default') return <span className="font-medium">Default</span>;
  const branch = arr(parent?.data.branches).find((b) => b.id === id);
  const conditions = arr(branch?.conditions);
  const text = conditions
    .map((c) => `${attributesById.get(str(c.attributeId))?.name ?? '?'} ${c.operator === 'NOT_EQUALS' ? '≠' : '='} ${str(c.value)}`)
    .join(' and ');
  return (
    <>
      <span className="font-medium">{str(data.label) || 'Branch'}</span>
      {text && <span className="text-fg-muted">: {text}</span>}
    </>
  );
}

const childKinds = new Set<BotNodeType>(['ListButtonNode', 'ReplyButtonNode', 'ConditionBranchNode']);

/** React Flow's node types of the bot canvas: module-level, so its identity never changes. */
export const botNodeTypes = Object.fromEntries(
  (Object.keys(botNodeKinds) as BotNodeType[]).map((t) => [t, childKinds.has(t) ? BotChildRow : BotNodeCard]),
) as Record<BotNodeType, typeof BotNodeCard>;
