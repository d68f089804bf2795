// Ends `npm test` by naming the suites it does not run, and how to run each (README, "Tests").
class NotRunReporter {
  onRunComplete() {
    const lines = [
      'Not run by `npm test` (each needs something beyond Node and npm):',
      '  npm run test:browser      the explorer in a real browser; needs Debian chromium (apt-get install chromium)',
      '  npm run test:distributed  Kafka, FerretDB, multi-process drills; start the servers first:',
      '                            bash scripts/infra/kafka.sh start && bash scripts/infra/ferretdb.sh start',
      '  npm run test:drills       end-to-end drills on the built app, a few minutes (test/drills/README.md)',
      '  EventStoreDB contract     runs inside `npm test` only when EVENTSTORE_URL points at a server',
      '  bash .ci/run              all of the above, as CI runs them',
    ];
    process.stderr.write(`\n${lines.join('\n')}\n`);
  }
}
module.exports = NotRunReporter;
