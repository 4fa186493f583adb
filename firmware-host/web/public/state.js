// What the page knows: the user, the feed's position, the latest snapshot, roads and wheel watch.

export const app = {
  me: null,
  csrf: null,
  table: null,
  state: null,
  roads: null,
  wheel: null,
  reconnectingFor: null,
  covered: null,
  gaps: 0,
  duplicates: 0,
  alarms: [],
  strip: [],
  stream: null,
  lastResult: null,
};
