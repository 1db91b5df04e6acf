package runtime

import "context"

// Interrupted returns the ids of the runs that have not finished and whose
// process is gone (it crashed or was killed) while their policy (restart
// or replay) keeps them for Recover, or for the next reader of the run,
// to resume. Runs listed by Runs as running are either running somewhere
// or interrupted; this tells them apart. A run waiting for an answer is
// not interrupted.
func (r *Runtime) Interrupted(ctx context.Context) ([]string, error) {
	orphans, err := r.store.Orphans(ctx, r.opts.Now())
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(orphans))
	for i, o := range orphans {
		ids[i] = o.ID
	}
	return ids, nil
}
