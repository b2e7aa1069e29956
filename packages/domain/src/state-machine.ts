import { z } from 'zod';
import { AppError } from './errors.ts';
import { detail, msg, text, textWith } from './messages.ts';
import { type EffectivePermissions, type Permission, scopeFor } from './permissions.ts';

/**
 * State machines of records that move through a lifecycle (CUI requests, planillas, payment orders,
 * agreements, pensions). The declaration is the single source of truth: the API applies a transition
 * only when it is declared here, the web app shows only the actions it allows, and the history names
 * each step with the labels given here.
 */

export interface TransitionDeclaration<S extends string> {
  /** Unique in the machine; written as the audit action and in the history (e.g. `PLANILLA_SUBMIT`). */
  key: string;
  from: S | readonly S[];
  to: S;
  /** The permission that allows taking it; its scope decides which records. */
  permission: Permission;
  /** A comment (reason) is required: rejections, observations, voiding. */
  commentRequired: boolean;
  /** The action in Spanish, as a button says it: «Aprobar». */
  label: string;
  /** Maker-checker: the person who made the record (its maker) may never take this transition. */
  notByMaker?: boolean;
  /**
   * Taken only by the application (a background job finishing or undoing a step it started), never on
   * a user's request: no user is offered it, and a request naming it is refused.
   */
  system?: boolean;
}

export interface Transition<S extends string> extends Omit<TransitionDeclaration<S>, 'from' | 'notByMaker' | 'system'> {
  from: readonly S[];
  notByMaker: boolean;
  system: boolean;
}

export interface StateMachine<S extends string = string> {
  /** The record's entity type in the audit log and in the transition history (`cui_approval_request`). */
  entityType: string;
  /** The record in Spanish, for messages: «La solicitud de CUI». */
  label: string;
  states: readonly S[];
  stateLabels: Readonly<Record<S, string>>;
  initial: S;
  transitions: readonly Transition<S>[];
  /** Message for a maker who tries a maker-checker transition. */
  makerMessage: string;
}

/**
 * Declares a machine and checks the declaration once, at module load: states and keys unique, every
 * `from`/`to` a declared state, at most one transition per (from, to) pair — so a request naming the
 * target state is never ambiguous — and no transition into the initial state from nowhere.
 */
export function defineMachine<const S extends string>(def: {
  entityType: string;
  label: string;
  states: readonly S[];
  stateLabels: Record<S, string>;
  initial: S;
  transitions: readonly TransitionDeclaration<S>[];
  makerMessage?: string;
}): StateMachine<S> {
  const states = new Set<string>(def.states);
  const fail = (why: string): never => {
    throw new Error(`Máquina de estados «${def.entityType}»: ${why}`);
  };
  if (states.size !== def.states.length) fail('estados repetidos');
  if (!states.has(def.initial)) fail(`el estado inicial ${def.initial} no está declarado`);
  const keys = new Set<string>();
  const pairs = new Set<string>();
  const transitions = def.transitions.map((t): Transition<S> => {
    const from: readonly S[] = typeof t.from === 'string' ? [t.from as S] : (t.from as readonly S[]);
    if (keys.has(t.key)) fail(`transición ${t.key} repetida`);
    keys.add(t.key);
    if (!from.length) fail(`la transición ${t.key} no sale de ningún estado`);
    for (const s of [...from, t.to]) if (!states.has(s)) fail(`la transición ${t.key} nombra el estado ${s}, no declarado`);
    for (const f of from) {
      if (f === t.to) fail(`la transición ${t.key} va de ${f} a sí mismo`);
      const pair = `${f}→${t.to}`;
      if (pairs.has(pair)) fail(`dos transiciones van de ${f} a ${t.to}`);
      pairs.add(pair);
    }
    return { ...t, from, notByMaker: t.notByMaker ?? false, system: t.system ?? false };
  });
  return {
    entityType: def.entityType,
    label: def.label,
    states: def.states,
    stateLabels: def.stateLabels,
    initial: def.initial,
    transitions,
    makerMessage: def.makerMessage ?? text('platform.makerDefault'),
  };
}

/** The declared transition from `from` to `to`, if any. */
export const findTransition = <S extends string>(machine: StateMachine<S>, from: S, to: S): Transition<S> | undefined =>
  machine.transitions.find((t) => t.to === to && t.from.includes(from));

/** Transitions leaving `state`, whoever may take them. */
export const transitionsFrom = <S extends string>(machine: StateMachine<S>, state: S): Transition<S>[] =>
  machine.transitions.filter((t) => t.from.includes(state));

/** A state no transition leaves (APROBADO, RECHAZADO, PAGADA…). */
export const isFinalState = <S extends string>(machine: StateMachine<S>, state: S): boolean =>
  transitionsFrom(machine, state).length === 0;

/** Who is acting on which record, for maker-checker transitions. */
export interface TransitionActor {
  actorId: number | null;
  /** The user who made the record (requested, submitted it); null when unknown or a system job. */
  makerId?: number | null;
  /** Everyone who created, changed or submitted the record (its audit trail; apps/api platform/maker-checker.ts). */
  makerIds?: readonly number[] | null;
}

const isMaker = (who: TransitionActor) =>
  who.actorId != null && ((who.makerId != null && who.actorId === who.makerId) || !!who.makerIds?.includes(who.actorId));

/**
 * The transitions from `state` that a user with `permissions` may take, in declaration order. Holding
 * the permission in any scope counts here; whether the record lies inside that scope is the API's
 * question (it knows the record's entity).
 */
export function allowedTransitions<S extends string>(
  machine: StateMachine<S>,
  state: S,
  permissions: EffectivePermissions,
  who: TransitionActor = { actorId: null },
): Transition<S>[] {
  return transitionsFrom(machine, state).filter(
    (t) => !t.system && !!scopeFor(permissions, t.permission.resource, t.permission.action) && !(t.notByMaker && isMaker(who)),
  );
}

/**
 * Decides whether a transition may be taken, or throws the error the user sees: CONFLICT when the
 * record's state does not allow it (or the step is the application's own and this is a user's
 * request), FORBIDDEN without the permission or for the maker of a maker-checker step, VALIDATION
 * (naming `comment`) when a required comment is missing. `system`: the application itself takes a
 * `system` step (no permission asked: it finishes or undoes what a user's permitted step started).
 * Returns the transition and the trimmed comment (null when empty).
 */
export function checkTransition<S extends string>(
  machine: StateMachine<S>,
  opts: { from: S; to: S; comment?: string | null; permissions: EffectivePermissions; system?: boolean } & TransitionActor,
): { transition: Transition<S>; comment: string | null } {
  const { from, to } = opts;
  const transition = findTransition(machine, from, to);
  if (transition?.system && !opts.system) {
    const label = (s: S) => machine.stateLabels[s] ?? s;
    throw new AppError(
      'CONFLICT',
      msg('platform.transitionBySystem', { record: machine.label, from: label(from), to: label(to) }),
    );
  }
  if (transition?.system && opts.system) {
    const comment = opts.comment?.trim() || null;
    if (transition.commentRequired && !comment) throw new Error(`System transition ${transition.key} needs its reason`);
    return { transition, comment };
  }
  if (!transition) {
    const label = (s: S) => machine.stateLabels[s] ?? s;
    throw new AppError(
      'CONFLICT',
      isFinalState(machine, from)
        ? msg('platform.transitionFinal', { record: machine.label, from: label(from) })
        : msg('platform.transitionNotAllowed', { record: machine.label, from: label(from), to: label(to) }),
    );
  }
  if (!scopeFor(opts.permissions, transition.permission.resource, transition.permission.action)) {
    throw new AppError('FORBIDDEN', msg('platform.transitionForbidden', { action: transition.label }));
  }
  if (transition.notByMaker && isMaker(opts)) throw new AppError('FORBIDDEN', machine.makerMessage);
  const comment = opts.comment?.trim() || null;
  if (transition.commentRequired && !comment) {
    const message = msg('platform.transitionCommentRequired', { action: transition.label });
    throw new AppError('VALIDATION', message, [{ path: 'comment', ...detail(message) }]);
  }
  return { transition, comment };
}

export const TRANSITION_COMMENT_MAX = 1000;

const commentSchema = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string()
    .trim()
    // The catalogue's text says TRANSITION_COMMENT_MAX (1000).
    .max(TRANSITION_COMMENT_MAX, text('platform.transitionCommentTooLong'))
    .nullable()
    .optional(),
);

/**
 * Body of a transition request on a record of `machine`: the target state, the comment, and the
 * state the user saw (`expected`) — when given and the record has moved on since, the answer is 409
 * instead of acting on a state the user never reviewed. A missing required comment is named on
 * `comment` (the same rule as checkTransition, so the form says it before the request is sent).
 */
export function transitionRequestSchemaFor<S extends string>(machine: StateMachine<S>) {
  const state = z.enum(machine.states as unknown as [S, ...S[]]);
  return z.object({ to: state, comment: commentSchema, expected: state.optional() }).superRefine((v, ctx) => {
    const needs = machine.transitions.filter((t) => t.to === v.to && !t.system);
    // Required when every way into `to` asks for a comment (the usual case: one way in).
    if (needs.length && needs.every((t) => t.commentRequired) && !v.comment) {
      ctx.addIssue({
        code: 'custom',
        path: ['comment'],
        message: textWith('platform.transitionCommentRequired', { action: needs[0].label }),
      });
    }
  });
}
export type TransitionRequest<S extends string = string> = { to: S; comment?: string | null; expected?: S };

/** A transition the current user may take on one record, as the API tells the web app. */
export const availableTransitionSchema = z.object({
  key: z.string(),
  to: z.string(),
  label: z.string(),
  commentRequired: z.boolean(),
});
export type AvailableTransition = z.infer<typeof availableTransitionSchema>;

export const toAvailable = <S extends string>(t: Transition<S>): AvailableTransition => ({
  key: t.key,
  to: t.to,
  label: t.label,
  commentRequired: t.commentRequired,
});

/** One step of a record's history: who moved it, when, from what to what, and why. */
export const stateTransitionSchema = z.object({
  id: z.number().int(),
  transition: z.string(),
  label: z.string(),
  from: z.string(),
  fromLabel: z.string(),
  to: z.string(),
  toLabel: z.string(),
  comment: z.string().nullable(),
  actorId: z.number().int().nullable(),
  actorEmail: z.string().nullable(),
  at: z.string(),
});
export type StateTransition = z.infer<typeof stateTransitionSchema>;
/** A record's whole state history, oldest first. */
export const stateTransitionListSchema = z.object({ items: z.array(stateTransitionSchema) });
export type StateTransitionList = z.infer<typeof stateTransitionListSchema>;
