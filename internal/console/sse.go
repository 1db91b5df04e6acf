package console

import (
	"encoding/json"
	"fmt"
	"io"
)

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
