/**
 * What the end-to-end tests need from the machine (socat for the ptys,
 * mosquitto for the broker): the probes are test/helpers/tools.ts's, which
 * skip (or fail under TABLESIDE_REQUIRE_TOOLS=1) with the reason.
 */
export { mosquittoMissing, skipReason, socatMissing } from '../../helpers/tools.ts';
export { until } from '../../helpers/until.ts';
