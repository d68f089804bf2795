import { OperatorInputError } from '../../errors';

/**
 * `projections rebuild` refused before anything switched: a newer version is live, another
 * instance holds the rebuild lease, or the alias moved meanwhile (RebuildRefusedError of
 * @lomo/read-models, as an operator refusal: nothing changed, exit code 2).
 */
export class ProjectionRebuildRefusedError extends OperatorInputError {
  readonly code = 'REBUILD_REFUSED';
  constructor(
    readonly projection: string,
    readonly reason: string,
  ) {
    super(`rebuild of ${projection} refused: ${reason}`, { projection, reason });
  }
}
