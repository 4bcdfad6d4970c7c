/** The name of the benches' context broker i: "Broker 000042" (sorted as numbered). */
export const brokerName = (i: number, prefix = "Broker") => `${prefix} ${String(i).padStart(6, "0")}`;

/** The body the benches register context broker i with (POST /api/context-brokers), as the spec has it. */
export const brokerPayload = (i: number, prefix = "Broker") => ({
  name: brokerName(i, prefix),
  description: "A context broker registered by the benchmark.",
  scheme: "http",
  host: `broker-${i}.bench.example`,
  port: 1026,
  multiTenancyEnabled: false,
  paginationMaxLimit: 1000,
  implementationName: "orion-ld",
  implementationVersion: "1.5.1",
});
