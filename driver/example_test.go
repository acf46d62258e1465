package driver_test

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"surge/client"
	"surge/driver"
	"surge/trace"
)

// echo is a stand-in for *client.Client that answers at once.
type echo struct{}

func (echo) Do(_ context.Context, req *client.Request) *client.Result {
	now := time.Now()
	return &client.Result{Sent: now, FirstToken: now, Last: now, Status: 200, CompletionTokens: req.MaxTokens}
}

// Example sends a three-session trace, one session a millisecond, and
// writes the records with a trace.RecordWriter.
func Example() {
	h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "chat", Model: "llama"}}}
	var sessions []*trace.Session
	for i := range 3 {
		sessions = append(sessions, &trace.Session{Client: "chat", Index: i, AtUS: int64(i) * 1000, API: "chat",
			Turns: []trace.Turn{{InputTokens: 2, OutputTokens: 8, MaxTokens: 8, Prompt: "Hello there"}}})
	}
	d, err := driver.New(driver.Config{Client: echo{}, Stream: true}, h, sessions)
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	w, err := trace.NewRecordWriter(&buf, trace.RunHeader{Target: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	end, err := d.Run(context.Background(), time.Now(), w)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(end); err != nil {
		fmt.Println(err)
		return
	}
	rs, err := trace.ReadRecords(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d records; scheduled %d, sent %d, dropped %d\n", len(rs.Records), rs.End.Scheduled, rs.End.Sent, rs.End.Dropped)
	// Output: 3 records; scheduled 3, sent 3, dropped 0
}
