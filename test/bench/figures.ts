/**
 * The benchmark figures, as data: which value of `npm run bench`'s figures
 * each row reads, its unit, what it is, and the figure measured beside it in
 * the same run (its baseline). The console table (`run.ts`) and the results
 * file (`results.ts`) both read this list, so they name the same figures.
 */

export type FigureSpec =
  /** One number. */
  | { kind: 'value'; path: string; unit: string; label: string }
  /** A lane's latency: min, p50, p99 and max, in ms. */
  | { kind: 'spread'; path: string; unit: 'ms'; label: string }
  /** A series of runs: `key` (its median), `min_key` and `max_key`. */
  | { kind: 'range'; path: string; key: string; unit: string; label: string };

/**
 * A figure's baseline: the figure measured in the same run that it is read
 * against (shared machines are noisy; the ratio is what compares between them).
 * A list names the baseline first and what older runs measured instead (the
 * bare relay, before the durable relay lane): the first one the run has.
 */
export const BASELINES: Readonly<Record<string, string | readonly string[]>> = {
  ...Object.fromEntries(
    ['back_to_back', 'paced_50ms', 'dealer_pace'].flatMap((phase) => [
      [`latency.${phase}.daemon`, [`latency.${phase}.durable`, `latency.${phase}.relay`]],
      [`latency.${phase}.paired`, `latency.${phase}.durable`],
      [`latency.${phase}.old`, [`latency.${phase}.durable`, `latency.${phase}.relay`]],
      [`latency.${phase}.durable`, `latency.${phase}.relay`],
    ]),
  ),
  ...Object.fromEntries(
    [0, 5, 50, 500].map((gap) => [
      `wake.daemon.gap_${gap}ms.p50_us`,
      `wake.relay.gap_${gap}ms.p50_us`,
    ]),
  ),
  'spins.p50_ms': 'spins.baseline.p50_ms',
  'burst.cards_per_s': 'burst.stop_and_wait.cards_per_s',
  'burst.window_8.cards_per_s': 'burst.stop_and_wait.cards_per_s',
  'evaluator.hands_per_s': 'evaluator.phe.hands_per_s',
  'evaluator.incremental.hands_per_s': 'evaluator.incremental.lookup_table.hands_per_s',
  'holdem.classes_ms': 'holdem.card_by_card_projected_ms',
  'signing.verify_request_us': 'signing.schema_only_us',
  'signing.sign_head_us': 'signing.fsynced_append_us',
  'signing.seal_us': 'signing.fsynced_append_us',
  'auth.per_frame.added_us': 'auth.per_frame.plain_parse_us',
  'pn532.p50_ms': 'pn532.baseline.p50_ms',
  'pn532.p99_ms': 'pn532.baseline.p99_ms',
  'shoe.p99_ms': 'shoe.colour_floor_ms',
  'web.rss_console_on_one_browser_mb': 'web.rss_console_off_mb',
};

/** Every figure, in the order the table shows them. */
export function figureSpecs(): FigureSpec[] {
  const specs: FigureSpec[] = [];
  const value = (path: string, unit: string, label = '') =>
    specs.push({ kind: 'value', path, unit, label });
  const spread = (path: string, label: string) =>
    specs.push({ kind: 'spread', path, unit: 'ms', label });
  const range = (path: string, key: string, unit: string, label: string) =>
    specs.push({ kind: 'range', path, key, unit, label });
  for (const [phase, label] of [
    ['back_to_back', 'back to back'],
    ['paced_50ms', 'a card every 50 ms'],
    ['dealer_pace', 'a card every 500 ms'],
  ] as const) {
    spread(`latency.${phase}.daemon`, `built daemon, ${label}`);
    spread(`latency.${phase}.paired`, `built daemon, paired shoe, ${label}, same run`);
    spread(
      `latency.${phase}.durable`,
      `durable relay (O_DSYNC append, then ACK), ${label}, same run`,
    );
    spread(`latency.${phase}.relay`, `bare relay, ${label}, same run`);
    for (const [key, what] of [
      ['ratio_durable_p50', 'daemon p50 / durable relay p50'],
      ['ratio_durable_p99', 'daemon p99 / durable relay p99'],
      ['ratio_durable_cpu_per_card', 'daemon CPU per card / durable relay CPU per card'],
      ['ratio_paired_durable_p50', 'paired daemon p50 / durable relay p50'],
      ['ratio_paired_durable_p99', 'paired daemon p99 / durable relay p99'],
      ['ratio_paired_durable_cpu_per_card', 'paired daemon CPU / durable relay CPU'],
      ['ratio_durability_p50', 'durable relay p50 / bare relay p50 (what durability costs)'],
      ['ratio_durability_p99', 'durable relay p99 / bare relay p99'],
    ] as const) {
      range(`latency.median.${phase}`, key, '×', `${what}, ${label}, median of the runs`);
    }
    value(`latency.${phase}.ratio_p50`, '×', 'daemon p50 / relay p50');
    value(`latency.${phase}.ratio_p99`, '×', 'daemon p99 / relay p99');
    value(`latency.${phase}.daemon.cpu_ms_per_card`, 'ms', `daemon CPU per card, ${label}`);
    value(
      `latency.${phase}.daemon.cpu_ms_per_card_above_idle`,
      'ms',
      `daemon CPU per card less its idle CPU, ${label}`,
    );
    value(`latency.${phase}.relay.cpu_ms_per_card`, 'ms', `relay CPU per card, ${label}`);
    value(`latency.${phase}.ratio_cpu_per_card`, '×', 'daemon CPU per card / relay CPU per card');
    // Only with --compare-dist: the other build's daemon in the same run.
    spread(`latency.${phase}.old`, `compared build's daemon, ${label}, same run`);
    value(`latency.${phase}.old.cpu_ms_per_card`, 'ms', `compared build's CPU per card, ${label}`);
    value(`latency.${phase}.ratio_old_p50`, '×', 'compared build p50 / relay p50');
    value(`latency.${phase}.ratio_old_cpu_per_card`, '×', 'compared build CPU / relay CPU');
    value(`latency.${phase}.ratio_new_old_p50`, '×', 'this build p50 / compared build p50');
    value(`latency.${phase}.ratio_new_old_p99`, '×', 'this build p99 / compared build p99');
    value(
      `latency.${phase}.ratio_new_old_cpu_per_card`,
      '×',
      'this build CPU / compared build CPU',
    );
  }
  for (const [kind, label] of [
    ['daemon', "the daemon's pure work for a card"],
    ['relay', "the bare relay's pure work for a card"],
  ] as const) {
    for (const gap of [0, 5, 50, 500]) {
      value(
        `wake.${kind}.gap_${gap}ms.p50_us`,
        'µs',
        `${label}, ${gap === 0 ? 'back to back' : `after a ${gap} ms pause`}, unit flags`,
      );
    }
    value(`wake.ratio_500ms.${kind}`, '×', `${label}: after 500 ms / back to back`);
  }
  value(
    'wear.write_bytes_per_card',
    'B',
    'bytes the daemon sent to storage per card (/proc/<pid>/io)',
  );
  value('wear.durable_writes_per_card', '', 'O_DSYNC journal writes per card');
  value('wear.syncs_per_card', '', 'fsync / fdatasync calls per card');
  value('wear.idle_write_bytes_per_hour', 'B', 'bytes written per hour with no cards');
  value(
    'wear.flash_bytes_per_card',
    'B',
    'flash programmed per card (a 16 KiB page per durable write)',
  );
  value(
    'wear.years_at_a_shoe_a_day',
    'years',
    '32 GB TLC card (≈32 TB of page writes), a shoe a day',
  );
  value('wear.years_at_ten_shoes_a_day', 'years', 'the same card, ten shoes a day');
  value('spins.p50_ms', 'ms', 'wheel RESULT → spin event');
  value('spins.p99_ms', 'ms', 'wheel RESULT → spin event');
  value('spins.baseline.p50_ms', 'ms', 'shoe CARD → card event');
  value('spins.ratio_p99', '×', 'spin p99 / card p99');
  value('latency.daemon_idle_cpu_percent', '% of a core', 'built daemon, shoe connected, no cards');
  value('latency.relay_idle_cpu_percent', '% of a core', 'bare relay, same stretch');
  value('latency.durable_idle_cpu_percent', '% of a core', 'durable relay, same stretch');
  value(
    'latency.paired_idle_cpu_percent',
    '% of a core',
    'daemon with a paired shoe, same stretch',
  );
  range('burst', 'cards_per_s', 'cards/s', 'built daemon, simulated shoe, its default window');
  range('burst', 'cpu_ms_per_card', 'ms', 'daemon CPU per card, saturated (the burst)');
  range('burst.window_8', 'cards_per_s', 'cards/s', 'window 8');
  range('burst.stop_and_wait', 'cards_per_s', 'cards/s', '1.1 shoe, stop and wait');
  value('burst.ratio_to_stop_and_wait', '×', 'window / stop and wait');
  value('footprint.cold_start_ms', 'ms');
  value('footprint.cold_start_after_20_shoes_ms', 'ms', '20-shoe journal, checkpoints');
  value(
    'footprint.cold_start_after_20_shoes_without_checkpoints_ms',
    'ms',
    'same journal, replay from seq 1',
  );
  value('footprint.rss_after_shoe_mb', 'MB');
  value('footprint.rss_after_warm_up_mb', 'MB', 'after 10 shoes');
  value('footprint.rss_after_last_shoe_mb', 'MB', 'after 150 shoes');
  value('footprint.rss_growth_per_shoe_mb', 'MB', 'per shoe after the first 10: flat');
  value('footprint.card_latency_min_ms', 'ms', 'built daemon, deployed flags, stop and wait');
  value('footprint.card_latency_p50_ms', 'ms', 'built daemon, deployed flags, stop and wait');
  value('footprint.card_latency_p99_ms', 'ms', 'built daemon, deployed flags, stop and wait');
  value('footprint.card_latency_max_ms', 'ms', 'built daemon, deployed flags, stop and wait');
  value('footprint.cpu_ms_per_card', 'ms', 'built daemon, deployed flags');
  value('footprint.idle_cpu_percent', '% of a core');
  value('evaluator.hands_per_s', 'hands/s');
  value('evaluator.phe.hands_per_s', 'hands/s', 'npm phe, same hands');
  value('evaluator.ratio', '×', 'ours / phe');
  value('evaluator.incremental.hands_per_s', 'hands/s', 'ours, rank state table, same enumeration');
  value(
    'evaluator.incremental.lookup_table.hands_per_s',
    'hands/s',
    'two-plus-two table, same hands',
  );
  value('evaluator.incremental.lookup_table.build_s', 's', 'building the two-plus-two table');
  value('evaluator.incremental.ratio', '×', 'ours / two-plus-two table');
  value('analysis.baccarat_8_decks_ms', 'ms');
  value('holdem.classes_ms', 'ms', "hold'em showdown by card classes, every deal");
  value(
    'holdem.card_by_card_projected_ms',
    'ms',
    'card-by-card sweep, every 16th board pattern x 16',
  );
  value('holdem.ratio', '×', 'card by card / by classes');
  value('mqtt.lanes.baseline.catchUpCpuUsPerEvent.median', 'µs', 'old bridge (3.1.1), per event');
  value('mqtt.ratiosToBaseline.lean-v4.catchUp', '×', 'bridge now, 3.1.1 / old bridge');
  value('mqtt.ratiosToBaseline.lean-v5.catchUp', '×', 'bridge now, MQTT 5 / old bridge');
  value('mqtt.ratiosToBaseline.lean-v4.paced', '×', 'one card at a time, journal included');
  value('wheel.report_3700_spins_ms', 'ms', 'wheel-bias report, 3,700 spins');
  value('wheel.report_37000_spins_ms', 'ms', 'wheel-bias report, 37,000 spins');
  value('wheel.report_ratio_to_tally', '×', 'report / bare tally of the same spins');
  value('wheel.slips_settled_per_s', 'slips/s', "the issue's 18-bet slip");
  value('wheel.slips_parsed_per_s', 'slips/s', 'parsing the slip alone');
  value('signing.verify_request_us', 'µs', 'one signed MQTT request checked');
  value('signing.schema_only_us', 'µs', 'its schema validation alone');
  value('signing.verify_ratio_to_schema', '×', 'signature check / schema validation');
  value('signing.sign_head_us', 'µs', 'one journal head signed (per checkpoint)');
  value('signing.fsynced_append_us', 'µs', 'one fsynced journal append');
  value('signing.sign_head_share_of_append', '×', 'head signature / fsynced append');
  value('signing.seal_us', 'µs', 'one seal: head signed and written (per sealIntervalSeconds)');
  value('signing.seal_share_of_append', '×', 'seal / fsynced append');
  value('auth.per_frame.added_us', 'µs', '1.4: seal + open per frame, over a plain parse');
  value('auth.per_frame.plain_parse_us', 'µs', 'baseline: a plain frame parsed');
  value('auth.handshake_ed25519.p95_ms', 'ms', 'CHALLENGE to session keys, Ed25519 key file');
  value('auth.handshake_p256.p95_ms', 'ms', 'CHALLENGE to session keys, P-256 key file');
  value('auth.driver_latency.ratio_p50', '×', 'paired / unpaired shoe, driver alone, p50');
  value('auth.driver_latency.ratio_p99', '×', 'paired / unpaired shoe, driver alone, p99');
  value('auth.latency_paired.p99_ms', 'ms', 'paired shoe through the daemon');
  value('auth.latency_paired.ratio_p99', '×', 'paired daemon p99 / bare relay p99');
  value('auth.latency_unpaired.ratio_p99', '×', 'unpaired daemon p99 / bare relay p99');
  value('auth.ratio_p99_paired_to_unpaired', '×', 'paired / unpaired, same run');
  value('pn532.p50_ms', 'ms', 'PN532 over HSU: tag to card record');
  value('pn532.p99_ms', 'ms', 'PN532 over HSU: tag to card record');
  value('pn532.baseline.p50_ms', 'ms', 'protocol reader, same pty and driver');
  value('pn532.baseline.p99_ms', 'ms', 'protocol reader, same pty and driver');
  value('pn532.ratio_p99', '×', 'PN532 p99 / protocol reader p99');
  value('shoe.p50_ms', 'ms', 'shoe firmware: beam break to CARD on the wire');
  value('shoe.p99_ms', 'ms', 'shoe firmware: beam break to CARD on the wire');
  value('shoe.beam_report.p99_ms', 'ms', 'beam break to the firmware hearing it (Firmata report)');
  value('shoe.colour_floor_ms', 'ms', 'two TCS34725 integrations (4 x 2.4 ms each)');
  value('shoe.ratio_p99_to_floor', '×', 'shoe p99 / colour floor');
  value('shoe.baud_115200.p50_ms', 'ms', 'the board at 115200 baud');
  value('shoe.baud_115200.p99_ms', 'ms', 'the board at 115200 baud');
  value('web.rss_console_off_mb', 'MB', 'built daemon, console off');
  value('web.rss_console_on_one_browser_mb', 'MB', 'console on, one page watching');
  value('web.rss_added_mb', 'MB', 'on − off');
  value('web.first_card_after_reload_ms', 'ms', 'page reload to first card on screen');
  value('web.first_card_after_feed_drop_ms', 'ms', 'daemon back to next card on screen');
  value('web.page_code_gzip_kb', 'kB', "the page's html, js modules and css, gzip");
  return specs;
}
