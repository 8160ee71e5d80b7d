/**
 * The bot editor: the shared canvas frame with the 14 bot node kinds, the selected step's form and the preview
 * beside it, and the bar that connects the bot to a number, deploys it and manages its published versions.
 */
import { validateBotCanvas } from '@shared/bot-validation';
import type { Bot } from '@shared/schemas/entities';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BackLinkTitle } from '../../../components/layout/detail-page';
import { type CanvasController, type CanvasGraph, CanvasFrame, CanvasLeaveGuard, createCanvasStore } from '../../../components/canvas';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { useIsAdmin, useWorkspace } from '../../../lib/queries/session';
import { botQueryOptions } from '../api/get-bot';
import { patchBot } from '../api/patch-bot';
import { type BotStore, botPalette, describeBotNode, seedNewParents } from '../canvas/bot-store';
import { childrenOf } from '../canvas/children';
import { BotEditorContextValue, makeBotEditorContext, usePreviewCursor } from '../canvas/editor-context';
import type { BotCanvasNode } from '../canvas/types';
import { botNodeTypes } from './nodes/bot-node';
import { PublishBar } from './publish-bar';
import { PreviewPanel } from './preview/preview-panel';
import { StepInspector } from './step-inspector';

function sameContent(a: CanvasGraph<BotCanvasNode>, b: CanvasGraph<BotCanvasNode>) {
  return (
    a.edges === b.edges &&
    a.nodes.length === b.nodes.length &&
    a.nodes.every((n, i) => n.id === b.nodes[i].id && n.type === b.nodes[i].type && n.data === b.nodes[i].data)
  );
}

export function BotEditor({ bot }: { bot: Bot }) {
  const isAdmin = useIsAdmin();
  const workspace = useWorkspace();
  const qc = useQueryClient();
  const [tab, setTab] = useState<'step' | 'preview'>('step');
  const controllerRef = useRef<CanvasController>(null);
  const store = useMemo(
    () =>
      createCanvasStore<BotCanvasNode>(bot.rfInstance as unknown as CanvasGraph<BotCanvasNode>, {
        // A List's items, a Reply's buttons and a Condition's branches are deleted with it.
        dependentsOf: (id, nodes, edges) => childrenOf(nodes, edges, id).map((n) => n.id),
        onlyOnce: (n) => (n.type === 'StartNode' ? 'A bot has one Start step' : null),
      }) as BotStore,
    // One store per open bot: later answers of the same bot (autosave) must not reset the canvas.
    [bot.id],
  );
  useEffect(() => seedNewParents(store), [store]);
  // Selecting a step (on the canvas, in the step list, from a problem) shows its form.
  useEffect(
    () =>
      store.subscribe((s, prev) => {
        if (s.selectedId && s.selectedId !== prev.selectedId) setTab('step');
      }),
    [store],
  );
  useEffect(() => () => usePreviewCursor.getState().setNodeId(null), []);

  const attributes = workspace.data?.Attribute;
  const members = workspace.data?.Member;
  const context = useMemo(
    () => makeBotEditorContext(bot.id, bot.whatsappAccountId, attributes ?? [], members ?? []),
    [bot.id, bot.whatsappAccountId, attributes, members],
  );
  // React Flow hands over a new nodes array for every measurement and drag frame; the problems only change
  // with the nodes' data and the edges, so the last answer is kept until one of those changes.
  const validate = useMemo(() => {
    let last: { graph: CanvasGraph<BotCanvasNode>; problems: ReturnType<typeof validateBotCanvas> } | null = null;
    return (g: CanvasGraph<BotCanvasNode>) => {
      if (last && sameContent(last.graph, g)) return last.problems;
      const problems = validateBotCanvas(g as never, { attributes: attributes ?? undefined, memberIds: members?.map((m) => m.id) });
      last = { graph: g, problems };
      return problems;
    };
  }, [attributes, members]);
  const save = useCallback(
    async (g: CanvasGraph<BotCanvasNode>) => {
      const saved = await patchBot(bot.id, { rfInstance: g as never });
      qc.setQueryData(botQueryOptions(bot.id).queryKey, saved);
    },
    [bot.id, qc],
  );
  const readOnly = !isAdmin;

  return (
    <BotEditorContextValue.Provider value={context}>
      <CanvasLeaveGuard controllerRef={controllerRef} />
      <div className="flex min-h-0 flex-1 flex-col">
        <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-border bg-surface px-4 py-2.5">
          <h1 className="min-w-0 text-base font-semibold tracking-tight">
            <BackLinkTitle to="/automation" label="Back to automation">
              <span className="truncate">{bot.title}</span>
            </BackLinkTitle>
          </h1>
          <PublishBar bot={bot} store={store} readOnly={readOnly} />
        </header>
        <div className="flex min-h-0 flex-1 gap-3 p-3">
          <CanvasFrame<BotCanvasNode>
            store={store}
            nodeTypes={botNodeTypes}
            palette={botPalette}
            validate={validate}
            save={save}
            describeNode={describeBotNode}
            readOnly={readOnly}
            readOnlyReason="Only workspace admins can change bots"
            label="Bot steps"
            controllerRef={controllerRef}
          />
          <aside className="flex w-[300px] shrink-0 flex-col overflow-hidden rounded-xl border border-border bg-surface xl:w-[340px] 2xl:w-[380px]" aria-label="Step and preview">
            <Tabs value={tab} onValueChange={(v) => setTab(v as 'step' | 'preview')} className="flex min-h-0 flex-1 flex-col">
              <div className="border-b border-border px-3 py-2">
                <TabsList>
                  <TabsTrigger value="step">Step</TabsTrigger>
                  <TabsTrigger value="preview">Preview</TabsTrigger>
                </TabsList>
              </div>
              <TabsContent value="step" className="min-h-0 flex-1 overflow-y-auto p-4">
                <StepInspector store={store} readOnly={readOnly} />
              </TabsContent>
              <TabsContent value="preview" forceMount hidden={tab !== 'preview'} className="flex min-h-0 flex-1 flex-col">
                <PreviewPanel bot={bot} store={store} />
              </TabsContent>
            </Tabs>
          </aside>
        </div>
      </div>
    </BotEditorContextValue.Provider>
  );
}
