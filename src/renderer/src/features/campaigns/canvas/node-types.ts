import type { NodeTypes } from '@xyflow/react';
import { DelayNode } from './delay-node';
import { OneTimeTriggerNode } from './one-time-trigger-node';
import { RecurringTriggerNode } from './recurring-trigger-node';
import { SendWhatsappNode } from './send-whatsapp-node';

/** Module-level, so React Flow never sees a new map (which would remount every node). */
export const campaignNodeTypes = { OneTimeTriggerNode, RecurringTriggerNode, SendWhatsappNode, DelayNode } satisfies NodeTypes;
