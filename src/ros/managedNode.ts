import type * as Rclnodejs from 'rclnodejs';

export type LifecycleTransition = 'configure' | 'activate' | 'deactivate' | 'cleanup' | 'shutdown';
export type PrimaryState = 'unconfigured' | 'inactive' | 'active' | 'finalized';

/**
 * What a managed node does in each transition. A handler that throws fails the transition: the
 * node stays in the state it started from and the error's message is the one-line reason.
 */
export interface LifecycleHandlers {
  onConfigure(): Promise<void>;
  onActivate(): Promise<void>;
  onDeactivate(): Promise<void>;
  onCleanup(): Promise<void>;
  /** From any primary state: release whatever that state holds. Must not throw. */
  onShutdown(from: PrimaryState): Promise<void>;
}

export interface TransitionOutcome {
  readonly ok: boolean;
  /** The primary state after the transition (the start state when it failed). */
  readonly state: PrimaryState;
  readonly reason: string;
  /** What the handler threw, when it failed. */
  readonly error?: unknown;
}

const ALLOWED: Readonly<Record<PrimaryState, readonly LifecycleTransition[]>> = {
  unconfigured: ['configure', 'shutdown'],
  inactive: ['activate', 'cleanup', 'shutdown'],
  active: ['deactivate', 'shutdown'],
  finalized: [],
};

/** lifecycle_msgs/msg/Transition ids and the labels rcl_lifecycle gives them. */
const TRANSITION_BY_ID: Readonly<Record<number, LifecycleTransition>> = {
  1: 'configure',
  2: 'cleanup',
  3: 'activate',
  4: 'deactivate',
  5: 'shutdown',
  6: 'shutdown',
  7: 'shutdown',
};
const TRANSITION_BY_LABEL: Readonly<Record<string, LifecycleTransition>> = {
  configure: 'configure',
  cleanup: 'cleanup',
  activate: 'activate',
  deactivate: 'deactivate',
  shutdown: 'shutdown',
  unconfigured_shutdown: 'shutdown',
  inactive_shutdown: 'shutdown',
  active_shutdown: 'shutdown',
};

// lifecycle_msgs/msg/Transition TRANSITION_CALLBACK_SUCCESS / _FAILURE.
const CALLBACK_SUCCESS = 97;
const CALLBACK_FAILURE = 98;

interface ChangeStateRequest {
  transition: { id: number; label: string };
}
interface ChangeStateResponse {
  send(response: { success: boolean }): void;
}
type ChangeStateHandler = (request: ChangeStateRequest, response: ChangeStateResponse) => unknown;

/**
 * A ROS 2 managed node: rclnodejs' LifecycleNode (rcl_lifecycle: the standard services
 * ~/change_state, ~/get_state, ~/get_available_states, ~/get_available_transitions and
 * ~/transition_event) driven by asynchronous handlers.
 *
 * rclnodejs runs transition callbacks synchronously inside the change_state service call, but
 * loading models and waiting for a run in flight are asynchronous. So a transition first runs our
 * handler to completion, then triggers the rcl transition with a callback that returns the
 * handler's outcome; the service answers once both are done. While a handler runs, get_state
 * still reports the start state and any other transition request is refused.
 */
export class ManagedNode {
  readonly node: Rclnodejs.lifecycle.LifecycleNode;
  private running: LifecycleTransition | undefined;
  private outcome = CALLBACK_SUCCESS;
  private readonly rcl: typeof Rclnodejs;

  constructor(
    rcl: typeof Rclnodejs,
    name: string,
    private readonly handlers: LifecycleHandlers,
    private readonly logFailure: (line: string) => void,
    private readonly logRefusal: (line: string) => void,
  ) {
    this.rcl = rcl;
    this.node = new rcl.lifecycle.LifecycleNode(name);
    const result = (): number => this.outcome;
    this.node.registerOnConfigure(result);
    this.node.registerOnActivate(result);
    this.node.registerOnDeactivate(result);
    this.node.registerOnCleanup(result);
    this.node.registerOnShutdown(result);
    // rclnodejs' change_state service calls this method by name on every request; replacing it on
    // the instance keeps rcl_lifecycle's own service and makes the answer wait for our handler.
    const asyncHandler: ChangeStateHandler = (request, response) =>
      this.onChangeStateRequest(request, response);
    (this.node as unknown as { _onChangeState: ChangeStateHandler })._onChangeState = asyncHandler;
  }

  get state(): PrimaryState {
    // rclnodejs' typings declare State.asMessage(), which its State class does not have; the
    // object does carry `id` and `label`.
    const { label } = this.node.currentState as unknown as { label: string };
    if (label === 'inactive' || label === 'active' || label === 'finalized') return label;
    return 'unconfigured';
  }

  /** The transition whose handler is running, if any. */
  get transitionInProgress(): LifecycleTransition | undefined {
    return this.running;
  }

  /**
   * Runs a transition (autostart, signals, tests). The caller reports a failure; requests through
   * ~/change_state are logged here, one line each.
   */
  async transition(t: LifecycleTransition): Promise<TransitionOutcome> {
    const from = this.state;
    const refused = this.running
      ? `${t} refused: ${this.running} is in progress`
      : !ALLOWED[from].includes(t)
        ? `${t} is not a transition from ${from}`
        : '';
    if (refused) return { ok: false, state: from, reason: refused };
    this.running = t;
    try {
      let failure: { error: unknown } | undefined;
      try {
        await this.runHandler(t, from);
        this.outcome = CALLBACK_SUCCESS;
      } catch (error) {
        failure = { error };
        this.outcome = CALLBACK_FAILURE;
      }
      this.trigger(t);
      if (!failure) return { ok: true, state: this.state, reason: '' };
      const e = failure.error;
      const reason = e instanceof Error ? e.message : String(e);
      return { ok: false, state: this.state, reason, error: e };
    } finally {
      this.running = undefined;
    }
  }

  private runHandler(t: LifecycleTransition, from: PrimaryState): Promise<void> {
    const h = this.handlers;
    switch (t) {
      case 'configure':
        return h.onConfigure();
      case 'activate':
        return h.onActivate();
      case 'deactivate':
        return h.onDeactivate();
      case 'cleanup':
        return h.onCleanup();
      case 'shutdown':
        return h.onShutdown(from);
    }
  }

  private trigger(t: LifecycleTransition): void {
    const value = new this.rcl.lifecycle.CallbackReturnValue();
    switch (t) {
      case 'configure':
        this.node.configure(value);
        return;
      case 'activate':
        this.node.activate(value);
        return;
      case 'deactivate':
        this.node.deactivate(value);
        return;
      case 'cleanup':
        this.node.cleanup(value);
        return;
      case 'shutdown':
        this.node.shutdown(value);
        return;
    }
  }

  private async onChangeStateRequest(
    request: ChangeStateRequest,
    response: ChangeStateResponse,
  ): Promise<void> {
    const t = request.transition.label
      ? TRANSITION_BY_LABEL[request.transition.label]
      : TRANSITION_BY_ID[request.transition.id];
    if (!t) {
      this.logRefusal(`unknown transition ${JSON.stringify(request.transition)}`);
      response.send({ success: false });
      return;
    }
    const outcome = await this.transition(t);
    if (!outcome.ok && outcome.error === undefined) this.logRefusal(outcome.reason);
    else if (!outcome.ok) this.logFailure(`${t} failed: ${outcome.reason}`);
    response.send({ success: outcome.ok });
  }
}
