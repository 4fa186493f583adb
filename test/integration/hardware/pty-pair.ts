/** The suite's pty pair lives in test/helpers/pty-pair.ts; kept here for the files that import it from here. */
export { PtyPair } from '../../helpers/pty-pair.ts';
