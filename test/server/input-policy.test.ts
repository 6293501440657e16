import { describe, expect, it } from "vitest";
import { isDecimal } from "../../src/data/decimal.ts";
import { validateForm } from "../../src/server/participant/service.ts";
import { createResearcher } from "../../src/server/researchers.ts";
import { isEmailAddress, passwordProblem } from "../../src/server/security/password-policy.ts";
import type { Field } from "../../src/server/study/config.ts";
import { csvField } from "../../src/server/study/export.ts";
import { freshStore, PASSWORD } from "./helpers.ts";

// Issue 28 item 6: password rules, e-mail addresses, strict decimal numbers, and a negative
// number exported as the number it is.

describe("issue 28 item 6: the password policy and e-mail addresses", () => {
  it("defect: 12345678, password, aaaaaaaa and x@y were accepted", async () => {
    for (const weak of ["12345678", "password", "aaaaaaaa"])
      expect(passwordProblem(weak), weak).not.toBeNull();
    expect(isEmailAddress("x@y")).toBe(false);
    const { db } = await (await freshStore("sqlite")).open();
    try {
      await expect(createResearcher(db, "x@y", PASSWORD)).rejects.toThrow(/not an e-mail address/);
      await expect(createResearcher(db, "r@example.org", "password")).rejects.toThrow(
        /at least 10 characters/,
      );
      await expect(createResearcher(db, "r@example.org", "password123")).rejects.toThrow(
        /most common passwords/,
      );
      expect(await createResearcher(db, "r@example.org", PASSWORD)).toBeGreaterThan(0);
    } finally {
      await db.destroy();
    }
  });

  it("long but trivial passwords are refused too; a passphrase is fine", () => {
    expect(passwordProblem("aaaaaaaaaaaa")).toMatch(/repeated or a run/);
    expect(passwordProblem("abababababab")).toMatch(/repeated or a run/);
    expect(passwordProblem("1234567890123")).toMatch(/repeated or a run/);
    expect(passwordProblem("abcdefghijklm")).toMatch(/repeated or a run/);
    expect(passwordProblem("QwertyUiop")).toMatch(/most common/);
    expect(passwordProblem("Password123!")).toMatch(/most common/);
    expect(passwordProblem("jane.doe-2026", "jane.doe@example.org")).toMatch(/e-mail name/);
    expect(passwordProblem("correct horse battery", "r@example.org")).toBeNull();
    expect(isEmailAddress("jane.doe@lab.example.org")).toBe(true);
    expect(isEmailAddress("jane doe@example.org")).toBe(false);
  });
});

describe("issue 28 item 6: numbers are plain decimals", () => {
  const age: Field = { id: "age", label: "Your age", kind: "number", required: true };

  it("defect: number answers accepted 0x10, 0b11 and 0o7", () => {
    for (const odd of ["0x10", "0b11", "0o7", "Infinity", "1e400", "12abc", "--5", "."])
      expect(() => validateForm([age], { age: odd }), odd).toThrow(/needs a number/);
    for (const ok of ["42", "-5", "+3", "3.5", ".5", "5.", "1e3", " 7 "])
      expect(validateForm([age], { age: ok }).get("age")).toBe(ok.trim());
    expect(isDecimal("")).toBe(false);
  });

  it("defect: -5 exported as '-5; a formula is still defused", () => {
    expect(csvField("-5")).toBe("-5");
    expect(csvField("+3.5")).toBe("+3.5");
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("-1+2")).toBe("'-1+2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
  });
});
