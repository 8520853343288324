import type { PositionRow } from './repo';
import type { PositionDto } from './schemas';

export function toPositionDto(p: PositionRow, terminals: { count: number; clientIds?: string[] }): PositionDto {
  return {
    Id: p.id,
    Name: p.name,
    Description: p.description,
    IsActive: p.isActive,
    TerminalCount: terminals.clientIds?.length ?? terminals.count,
    TerminalClientIds: terminals.clientIds,
    CreatedAt: p.createdAt,
    UpdatedAt: p.updatedAt,
  };
}
