import { createSpace } from "../../../geometry/multiclass/space.ts";
import { findSphere, type Sphere } from "../../../geometry/multiclass/sphere.ts";
import type { PreparedMulticlass } from "../../../population/multiclass.ts";
import type { StudyConfig } from "../../study/config.ts";
import { multiclassStudyData } from "../multiclass/data.ts";

/**
 * A quadratic study's data: the multiclass pool of its dataset and the ball of class rates
 * its questions stay in (NeurIPS 2019 Algorithm 3 on the diagonal rates: every point of it is
 * realised by a mixture of the pool's classifiers).
 */
export interface QuadraticStudyData extends PreparedMulticlass {
  readonly sphere: Sphere<"diag-rates">;
}

const cache = new Map<string, QuadraticStudyData>();

/**
 * The prepared data of a quadratic study, computed once per configuration hash.
 * @example quadraticStudyData(hash, config).sphere.rho // 0.2
 */
export function quadraticStudyData(configHash: string, config: StudyConfig): QuadraticStudyData {
  let d = cache.get(configHash);
  if (!d) {
    const prepared = multiclassStudyData(configHash, config);
    d = { ...prepared, sphere: findSphere(createSpace("diag-rates", prepared.pool)) };
    if (cache.size > 64) cache.clear();
    cache.set(configHash, d);
  }
  return d;
}
