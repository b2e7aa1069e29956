import { makeCui } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  budgetLines,
  classifications,
  contributorTypes,
  institutions,
  municipalEntities,
  municipalities,
  renapPeople,
  userInstitutions,
} from '../../db/schema/index.ts';

let n = 0;

/** Rows contributor tests need that other modules own: a classification, entities, a budget line. */
export async function contributorFixtures(db: Db) {
  n += 1;
  const [cls] = await db
    .insert(classifications)
    .values({ code: `MUNI-${n}-${Date.now()}`, name: 'Municipalidad' })
    .returning();
  const [mun] = await db.select().from(municipalities).where(eq(municipalities.code, '0904'));
  const entity = async (code: string, name: string) =>
    (await db.insert(municipalEntities).values({ code, name, classificationId: cls.id, municipalityId: mun.id }).returning())[0];
  const entityA = await entity(`E-A-${n}`, `Municipalidad de Quetzaltenango ${n}`);
  const entityB = await entity(`E-B-${n}`, `Municipalidad de Mixco ${n}`);
  await db
    .insert(budgetLines)
    .values({ code: '011', name: 'Personal permanente', isSubjectToContribution: true })
    .onConflictDoNothing();
  const types = await db.select().from(contributorTypes).orderBy(contributorTypes.sortOrder);
  return { municipality: mun, entityA, entityB, typeId: types[0].id, types };
}

/** An ENTIDAD institution for `entityId` holding `userId`: the ENTITY data scope. */
export async function attachUserToEntity(db: Db, userId: number, entityId: number) {
  const [inst] = await db
    .insert(institutions)
    .values({ code: `ENT-${entityId}-${userId}`, name: 'Entidad', kind: 'ENTIDAD', entityId })
    .returning();
  await db.insert(userInstitutions).values({ userId, institutionId: inst.id, position: 0 });
}

let serial = 31_000_000;
/** A fresh valid CUI registered in municipality 0904 (or the given one). */
export const newCui = (mun = '0904') => {
  serial += 17;
  return makeCui(serial + Math.floor(Math.random() * 1000) * 1000, mun);
};

export async function addRenapPerson(db: Db, cui: string, over: Partial<typeof renapPeople.$inferInsert> = {}) {
  await db.insert(renapPeople).values({
    cui,
    firstName: 'ANA',
    secondName: 'MARÍA',
    firstSurname: 'LÓPEZ',
    secondSurname: 'GARCÍA',
    birthDate: '1990-05-01',
    sex: 'F',
    ...over,
  });
}
