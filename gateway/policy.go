package gateway

import (
	"github.com/rfc1738/locator/access"
)

// A Resolver looks names up (net.DefaultResolver; tests give their own).
type Resolver = access.Resolver

// policy is the access.Policy every request of s is followed under.
func (s *Server) policy() access.Policy {
	p := s.cfg.Policy
	p.AllowPorts = append(append([]int(nil), p.AllowPorts...), s.cfg.AllowPorts...)
	p.Special = access.SpecialNever
	return p
}
