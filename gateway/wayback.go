package gateway

import (
	"net/http"
	"time"

	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/wayback"
)

// A WaybackIndex is the index of captures Config.Wayback names
// (wayback.Open).
type WaybackIndex = wayback.Index

// DefaultCollection is the collection's name when Config.Collection is
// "": pywb's and the Wayback Machine's "web".
const DefaultCollection = "web"

// waybackHandler is the Handler of Config.Wayback, or nil.
func (s *Server) waybackHandler() *wayback.Handler {
	if s.cfg.Wayback == nil {
		return nil
	}
	coll := s.cfg.Collection
	if coll == "" {
		coll = DefaultCollection
	}
	return &wayback.Handler{Index: s.cfg.Wayback, Collection: coll}
}

// isWayback says whether the request target (the origin form's path,
// without its first "/") is the collection's.
func (x *exchange) isWayback(rest string) bool {
	h := x.s.waybackHandler()
	return h != nil && h.Owns("/"+rest)
}

// wayback serves the collection's URL layout (package wayback); a
// memento is replayed as the path form replays a URL, from the archive
// at the capture's time (archive.WithTime), with the headers the
// Handler set.
func (x *exchange) wayback() {
	h := x.s.waybackHandler()
	h.Replay = func(w http.ResponseWriter, r *http.Request, target string, at time.Time) {
		x.mode = pathForm
		if x.s.cfg.Archive == nil { // an index without its archive: nothing is fetched live
			x.fail(http.StatusNotFound, "The gateway serves this collection's index without its archive.")
			return
		}
		x.r = r.WithContext(archive.WithTime(r.Context(), at))
		// A listing's links lead to the captures of the same time, as
		// the Wayback Machine's do: /web/TS/U, which the Handler
		// answers with the capture of U closest to TS.
		x.memento = "/" + h.Collection + "/" + at.UTC().Format("20060102150405") + "/"
		x.follow(target, "")
	}
	h.ServeHTTP(x.w, x.r)
}
