package harness

import (
	"fmt"
	"strings"

	"surge/metrics"
	"surge/sim"
	"surge/sim/server"
	"surge/sim/virtual"
)

// NewVirtual configures replicas of the engine eng describes, behind
// router (round-robin or least-loaded), in virtual time. eng names its
// model and GPU from the catalog. The target's name says what ran, e.g.
// sim://Llama-3.1-8B@H100-SXMx1, with a query listing the replicas and
// router when there are several and the engine settings that differ from
// vLLM's defaults. Errors name the command line's flags.
func NewVirtual(eng Engine, replicas int, router string) (*Virtual, error) {
	hw, err := eng.hardware("sim")
	if err != nil {
		return nil, err
	}
	if replicas < 1 {
		return nil, fmt.Errorf("--replicas %d: want 1 or more", replicas)
	}
	r, err := virtual.ParseRouter(router)
	if err != nil {
		return nil, fmt.Errorf("--router: %w", err)
	}
	eng.Settings = eng.Settings.orDefaults(eng.TP)
	hw, ec, err := eng.Settings.resolve(hw)
	if err != nil {
		return nil, err
	}
	var query []string
	if replicas > 1 {
		query = append(query, fmt.Sprintf("replicas=%d&router=%s", replicas, r))
	}
	if q := eng.Settings.Query(hw); q != "" {
		query = append(query, q)
	}
	target := fmt.Sprintf("%s%s@%sx%d", metrics.VirtualTargetScheme, hw.Model.Name, hw.GPU.Name, eng.TP)
	if len(query) > 0 {
		target += "?" + strings.Join(query, "&")
	}
	return &Virtual{
		Config: virtual.Config{Engine: ec, Cost: sim.NewCostModel(hw, sim.CostParams{}), Replicas: replicas, Router: r},
		Target: target,
	}, nil
}

// NewServer is the configuration of a real-time server of the engine eng
// describes, without its tokenizer, served name and faults. eng names its
// model and GPU from the catalog; errors name the command line's flags.
func NewServer(eng Engine) (server.Config, error) {
	hw, err := eng.hardware("serve")
	if err != nil {
		return server.Config{}, err
	}
	return eng.Settings.orDefaults(eng.TP).Server(hw)
}

// hardware looks eng's model and GPU up in the catalog; verb names the
// command that needs them in errors.
func (eng Engine) hardware(verb string) (sim.Hardware, error) {
	switch {
	case eng.Model == "" || eng.GPU == "":
		return sim.Hardware{}, fmt.Errorf("%s needs --engine-model and --gpu, e.g. --engine-model llama-3.1-8b --gpu h100", verb)
	case eng.TP < 1:
		return sim.Hardware{}, fmt.Errorf("--tp %d: want 1 or more GPUs", eng.TP)
	}
	m, err := sim.LookupModel(eng.Model)
	if err != nil {
		return sim.Hardware{}, fmt.Errorf("--engine-model: %w", err)
	}
	g, err := sim.LookupGPU(eng.GPU)
	if err != nil {
		return sim.Hardware{}, fmt.Errorf("--gpu: %w", err)
	}
	return sim.Hardware{Model: m, GPU: g, TP: eng.TP}, nil
}
