// What the page knows: the user, the feed's position, the latest snapshot and roads.

export const app = {
  me: null,
  csrf: null,
  table: null,
  state: null,
  roads: null,
  covered: null,
  gaps: 0,
  duplicates: 0,
  alarms: [],
  strip: [],
  stream: null,
  lastResult: null,
};
