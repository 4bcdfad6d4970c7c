import { defineKind } from "../kind.ts";
import { address, description, implementation, name } from "../fields.ts";

export const vcVerifiers = defineKind({
  kind: "vc-verifiers",
  urnType: "VCVerifier",
  routeName: "vcVerifiers",
  scope: "platform",
  columns: [],
  fields: [
    name,
    description,
    {
      name: "did",
      input: "text",
      required: true,
      maxLength: 500,
      pattern: /^did:[a-z0-9]+:\S+$/,
      format: "did",
    },
    ...address,
    ...implementation(["fiware-vc-verifier"]),
  ],
});
