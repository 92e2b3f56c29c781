package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/locator"
)

// optsClient answers with what its Request says of the request's own
// values: one scheme client, shared by every request.
type optsClient struct{}

func (optsClient) Check(u *locator.URL, req *Request) error { return nil }

func (optsClient) Fetch(ctx context.Context, u *locator.URL, req *Request) (*Resource, error) {
	answer := ""
	if ask := req.Ask(); ask != nil {
		v, err := ask(Question{Prompt: "name"})
		if err != nil {
			return nil, err
		}
		answer = v
	}
	pw, err := req.Password("pw: ")
	if err != nil && !errors.Is(err, ErrNoPassword) {
		return nil, err
	}
	s := fmt.Sprintf("search=%q view=%q answers=%v ask=%q password=%q", req.Search(), req.View(), req.Answers(), answer, pw)
	return &Resource{Body: io.NopCloser(strings.NewReader(s)), Size: int64(len(s))}, nil
}

// TestOptionsPerRequest: the values of one request (Options) reach the
// scheme client through its Request, each request its own, though one
// Client and one scheme client serve them all, at once (net/http's
// Request and Client); Options.Password takes the place of
// Client.Password for its request, and Get gives none.
func TestOptionsPerRequest(t *testing.T) {
	Register("x-opts", Info{}, func() Fetcher { return optsClient{} })
	u, err := locator.Parse("x-opts:thing")
	if err != nil {
		t.Fatal(err)
	}
	c := &Client{Password: func(string) (string, error) { return "client's", nil }}
	read := func(res *Resource, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got, want := read(c.Get(context.Background(), u)), `search="" view="" answers=map[] ask="" password="client's"`; got != want {
		t.Errorf("Get: %s, want %s", got, want)
	}
	if got, want := read(c.Do(context.Background(), u, nil)), `search="" view="" answers=map[] ask="" password="client's"`; got != want {
		t.Errorf("Do with nil Options: %s, want %s", got, want)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opts := &Options{
				Search:   fmt.Sprint("words ", i),
				View:     fmt.Sprint("text/plain ", i),
				Answers:  map[string]string{"1": fmt.Sprint(i)},
				Ask:      func(q Question) (string, error) { return fmt.Sprint(q.Prompt, i), nil },
				Password: func(string) (string, error) { return fmt.Sprint("secret", i), nil },
			}
			res, err := c.Do(context.Background(), u, opts)
			got := read(res, err)
			want := fmt.Sprintf(`search="words %d" view="text/plain %d" answers=map[1:%d] ask="name%d" password="secret%d"`, i, i, i, i, i)
			if got != want {
				t.Errorf("request %d: %s, want %s", i, got, want)
			}
		}()
	}
	wg.Wait()
	if _, err := c.Do(context.Background(), u, &Options{Offset: -1}); err == nil {
		t.Errorf("a negative Offset: no error")
	}
}

// TestWithOptions: a Request a program makes itself carries a request's
// own values once given them, its offset among them, and the Request it
// was made from keeps none.
func TestWithOptions(t *testing.T) {
	u, _ := locator.Parse("gopher://h/7find")
	c := &Client{}
	r := &Request{Client: c, URL: u}
	ask := func(Question) (string, error) { return "a", nil }
	n := r.WithOptions(&Options{Offset: 5, Search: "words", View: "text/plain", Answers: map[string]string{"1": "x"}, Ask: ask})
	if n.Client != c || n.URL != u || n.Offset() != 5 || n.Search() != "words" || n.View() != "text/plain" || n.Answers()["1"] != "x" || n.Ask() == nil {
		t.Errorf("with options: %+v", n)
	}
	if r.Search() != "" || r.Offset() != 0 || r.Ask() != nil {
		t.Errorf("the Request it was made from: %q %d", r.Search(), r.Offset())
	}
	if z := r.WithOptions(nil); z.Search() != "" || z.Answers() != nil || z.Offset() != 0 {
		t.Errorf("nil options: %+v", z)
	}
}
