package harness

import (
	"errors"
	"fmt"
	"strings"

	"surge/metrics"
	"surge/sim"
	"surge/sim/virtual"
)

// NewVirtual configures replicas of the engine eng describes, behind
// router (round-robin or least-loaded), in virtual time. eng names its
// model and GPU from the catalog. The target's name says what ran, e.g.
// sim://Llama-3.1-8B@H100-SXMx1, with a query listing the replicas and
// router when there are several and the engine settings that differ from
// vLLM's defaults. Errors name the command line's flags.
func NewVirtual(eng Engine, replicas int, router string) (*Virtual, error) {
	switch {
	case eng.Model == "" || eng.GPU == "":
		return nil, errors.New("sim needs --model and --gpu, e.g. --model llama-3.1-8b --gpu h100")
	case eng.TP < 1:
		return nil, fmt.Errorf("--tp %d: want 1 or more GPUs per replica", eng.TP)
	case replicas < 1:
		return nil, fmt.Errorf("--replicas %d: want 1 or more", replicas)
	}
	m, err := sim.LookupModel(eng.Model)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	g, err := sim.LookupGPU(eng.GPU)
	if err != nil {
		return nil, fmt.Errorf("--gpu: %w", err)
	}
	r, err := virtual.ParseRouter(router)
	if err != nil {
		return nil, fmt.Errorf("--router: %w", err)
	}
	hw := sim.Hardware{Model: m, GPU: g, TP: eng.TP}
	ec, err := eng.Settings.Resolve(hw)
	if err != nil {
		return nil, err
	}
	var query []string
	if replicas > 1 {
		query = append(query, fmt.Sprintf("replicas=%d&router=%s", replicas, r))
	}
	if q := eng.Settings.Query(); q != "" {
		query = append(query, q)
	}
	target := fmt.Sprintf("%s%s@%sx%d", metrics.VirtualTargetScheme, m.Name, g.Name, eng.TP)
	if len(query) > 0 {
		target += "?" + strings.Join(query, "&")
	}
	return &Virtual{
		Config: virtual.Config{Engine: ec, Cost: sim.NewCostModel(hw, sim.CostParams{}), Replicas: replicas, Router: r},
		Target: target,
	}, nil
}
