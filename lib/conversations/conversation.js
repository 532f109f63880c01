// One connection's conversation with the server, as --replay records and plays it: the handshake's
// server flights, then one step per command the client sent (its shape and the server's whole reply).
// Pure: fed bytes, never a socket.
import { PacketReader, ReplyTracker, agreed, answered, canonicalGreeting, commandName, commandShape, readGreeting, readHandshakeResponse, COM } from './wire.js';

/** Follows both directions of a live connection and cuts the server's bytes into replies. */
export class ConversationRecorder {
  constructor() {
    this.flights = [[]];
    this.steps = [];
    this.opStarts = [];
    this.client = new PacketReader();
    this.server = new PacketReader();
    this.inHandshake = true;
    this.greeting = null;
    this.clientCaps = null;
    this.awaiting = [];
    this.tracker = null;
    this.stray = 0;
  }

  clientBytes(chunk) {
    for (const { seq, payload, bytes } of this.client.push(Buffer.from(chunk))) {
      if (this.inHandshake && seq !== 0) {
        this.clientCaps ??= readHandshakeResponse(payload);
        this.flights.push([]);
        continue;
      }
      this.inHandshake = false;
      const { cmd, stmt } = commandShape(payload);
      if (cmd === COM.QUIT) continue; // the end of the conversation, never replayed as a step
      const step = { cmd, stmt, sent: bytes.length, reply: [] };
      this.steps.push(step);
      if (answered(cmd)) this.awaiting.push(step);
    }
  }

  serverBytes(chunk) {
    for (const { payload, bytes } of this.server.push(Buffer.from(chunk))) {
      if (this.inHandshake) {
        // Canonical, so that two captures of one bench and driver are the same bytes.
        const first = this.greeting === null;
        this.greeting ??= readGreeting(payload);
        this.flights[this.flights.length - 1].push(first ? canonicalGreeting(bytes) : Buffer.from(bytes));
        continue;
      }
      const step = this.awaiting[0];
      if (!step) { this.stray++; continue; }
      step.reply.push(Buffer.from(bytes));
      this.tracker ??= new ReplyTracker(step.cmd, agreed(this.greeting, this.clientCaps));
      if (this.tracker.feed(payload)) {
        this.awaiting.shift();
        this.tracker = null;
      }
    }
  }

  /** An operation starts here (its commands are the steps from now to the next mark). */
  markOp() {
    this.opStarts.push(this.steps.length);
  }

  // Playback goes through every step once, then round from cycleFrom: the first step of the operations
  // that repeat the last one's commands.
  finish() {
    this.markOp();
    const end = this.opStarts.pop();
    if (this.awaiting.length || this.client.pending || this.server.pending || this.stray) {
      const what = this.awaiting.length ? `the reply to ${commandName(this.awaiting[0].cmd)} did not end where the protocol says`
        : this.stray ? `${this.stray} packets from the server answered no command` : 'a packet was cut short';
      throw new Error(`could not record the conversation: ${what}`);
    }
    const steps = this.steps.slice(0, end).map((s) => ({ cmd: s.cmd, stmt: s.stmt, sent: s.sent, reply: Buffer.concat(s.reply) }));
    const shapes = this.opStarts.map((from, i) => steps.slice(from, this.opStarts[i + 1] ?? end).map((s) => `${s.cmd}:${s.stmt}`).join(','));
    const last = shapes.length - 1;
    if (last < 1) throw new Error('could not record the conversation: fewer than two operations');
    let first = last;
    while (first > 1 && shapes[first - 1] === shapes[last]) first--;
    return {
      serverVersion: this.greeting?.version ?? null,
      flights: this.flights.map((f) => Buffer.concat(f)),
      steps,
      ops: this.opStarts.length,
      cycleFrom: this.opStarts[first],
      cycleOps: this.opStarts.length - first,
    };
  }
}

/** clientBytes() throws a CommandMismatch when the client writes a command the recording does not have there. */
export class ConversationPlayer {
  constructor({ flights, steps, cycleFrom }) {
    this.flights = flights;
    this.steps = steps;
    this.cycleFrom = cycleFrom;
    this.flight = 0;
    this.next = 0;
    this.commands = 0;
    this.reader = new PacketReader();
    this.inHandshake = true;
    this.quit = false;
  }

  handshake() {
    return this.flights[0];
  }

  clientBytes(chunk) {
    const replies = [];
    for (const { seq, payload } of this.reader.push(chunk)) {
      if (this.inHandshake && seq !== 0) {
        const flight = this.flights[++this.flight];
        if (flight?.length) replies.push(flight);
        continue;
      }
      this.inHandshake = false;
      const { cmd, stmt } = commandShape(payload);
      if (cmd === COM.QUIT) { this.quit = true; continue; }
      const step = this.steps[this.next];
      this.commands++;
      if (!step || step.cmd !== cmd || (step.stmt !== null && step.stmt !== stmt)) {
        if (!answered(cmd)) continue; // a statement closed on the way out: nothing to answer
        throw new CommandMismatch({ cmd, stmt }, step, this.commands);
      }
      this.next = this.next + 1 === this.steps.length ? this.cycleFrom : this.next + 1;
      if (step.reply.length) replies.push(step.reply);
    }
    return replies;
  }
}

const describe = ({ cmd, stmt }) => `${commandName(cmd)}${stmt === null || stmt === undefined ? '' : ` (statement ${stmt})`}`;

export class CommandMismatch extends Error {
  constructor(written, expected, index) {
    super(`replay: the driver wrote ${describe(written)} as command ${index} where the recording has ${expected ? describe(expected) : 'nothing more'}; capture again (the driver or the bench changed?)`);
    this.name = 'CommandMismatch';
  }
}
