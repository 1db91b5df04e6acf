package console

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// startEvents answers a request with an event stream: its headers (no
// caching, no proxy buffering) sent at once.
func startEvents(w http.ResponseWriter) *http.ResponseController {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	w.WriteHeader(http.StatusOK)
	rc.Flush()
	return rc
}

// writeEvent writes one server-sent event whose data is v as JSON (one
// line: JSON escapes newlines, so output cannot end or forge an event).
func writeEvent(w io.Writer, id int64, event string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if id > 0 {
		_, err = fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", id, event, data)
	} else {
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	}
	return err
}
